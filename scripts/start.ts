import { join } from 'node:path';
import { startMockSeller } from '../mock-seller/app';
import { REPO_ROOT } from '../gateway/store/store-config';
import { startGatewayServer } from '../gateway/server';

// npm start: the mock seller (9090, default scenario), the embedded store with the seeds,
// and the gateway (8080) — everything a developer needs to call the gateway locally.

const scenario = process.env.MOCK_SELLER_SCENARIO ?? join(REPO_ROOT, 'fixtures', 'scenarios', 'default.json');
const sellerPort = Number(process.env.MOCK_SELLER_PORT ?? 9090);
// Development only: let `curl -H 'x-mock-fault: …'` reach the mock seller through the gateway.
process.env.GATEWAY_FORWARD_HEADERS ??= 'x-mock-fault';

try {
  const seller = await startMockSeller({ scenario, port: sellerPort, host: '127.0.0.1' });
  let gateway;
  try {
    gateway = await startGatewayServer();
  } catch (error) {
    await seller.close();
    throw error;
  }
  const base = gateway.url;
  console.error(`
Federated Gateway (development)
  gateway       ${base}            (GET ${base}/health)
  mock seller   ${seller.url}/seller     (scenario ${scenario}; control ${seller.url}/__admin, journal ${seller.url}/__admin/journal)
  store         DATABASE_URL / GATEWAY_DATA_DIR, else var/pglite (seeded on first start)

Mint a development token (user demo) and ask for an item:
  TOKEN=$(npm run -s token -- --user demo | tail -1)
  curl -s ${base}/json/federated/v3_2/item_inquiry \\
    -H "Authorization: Bearer $TOKEN" -H 'content-type: application/json' \\
    -d '{"items":[{"id":"1","mfr_code":"WIX","part_number":"51515"}]}'

More: docs/gateway.md. Ctrl-C stops everything (in-flight requests finish first).
`);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.error(`start: ${signal}, stopping`);
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    // The gateway drains first, so its in-flight seller calls still find the mock seller.
    gateway
      .close()
      .catch((error) => console.error(`start: gateway shutdown: ${(error as Error).message}`))
      .then(() => seller.close())
      .then(() => process.exit(0));
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
} catch (error) {
  console.error(`start: ${(error as Error).message}`);
  process.exit(1);
}
