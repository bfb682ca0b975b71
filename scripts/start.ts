import { DEFAULT_SCENARIO_PATH, startMockSeller } from '../mock-seller/index';
import { startGatewayServer } from '../gateway/server';
import { INTERNAL_API_SERVER_ENVIRONMENT, startInternalApi } from '../gateway/internal-api/server';
import { GATEWAY_PROCESS_ENVIRONMENT } from '../gateway/server-settings';
import { MOCK_SELLER_ENVIRONMENT } from '../cli/mock-seller-command';
import { readEnvironment } from '../shared/environment';
import { Type } from '@sinclair/typebox';
import { openGatewayStore, seedingEnabled } from '../gateway/open-gateway-store';
import { demoSellerUrl, pointSeededMembersAt } from '../gateway/directory/demo-seller-url';
import { createDirectory } from '../gateway/directory/create-directory';
import { createExchangeLog } from '../inspector/exchange-log';
import { createGatewayMetrics } from '../gateway/metrics/gateway-metrics';
import { startCertificationWorker } from './certification/worker';

// npm start: the mock seller (9090, default scenario), the embedded store with the seeds,
// the gateway (8080) and the internal API (8081) — everything a developer needs locally.
// One process, one store: the embedded PGlite store admits a single process.

// Development only: let `curl -H 'x-mock-fault: …'` reach the mock seller through the gateway.
process.env.GATEWAY_FORWARD_HEADERS ??= 'x-mock-fault';

/** Everything npm start reads: the mock seller's, the gateway's, the store's and the internal API's variables. */
export const START_ENVIRONMENT = Type.Object({
  ...MOCK_SELLER_ENVIRONMENT.properties,
  ...GATEWAY_PROCESS_ENVIRONMENT.properties,
  ...INTERNAL_API_SERVER_ENVIRONMENT.properties,
});

let env;
try {
  env = readEnvironment(START_ENVIRONMENT);
} catch (error) {
  console.error(`start: ${(error as Error).message}`);
  process.exit(2);
}
if (env.GATEWAY_WORKERS > 1) {
  // npm start is one process sharing one embedded store: workers are for `npm run gateway` on PostgreSQL.
  console.error(
    `start: GATEWAY_WORKERS=${env.GATEWAY_WORKERS} is ignored here: npm start runs one gateway in its own process (use npm run gateway with DATABASE_URL for workers)`,
  );
}
const scenario = env.MOCK_SELLER_SCENARIO ?? DEFAULT_SCENARIO_PATH;
const sellerPort = env.MOCK_SELLER_PORT;

try {
  const seller = await startMockSeller({
    scenario,
    port: sellerPort,
    host: env.MOCK_SELLER_HOST,
    publicUrl: env.MOCK_SELLER_PUBLIC_URL,
  });
  let store;
  let gateway;
  let internal;
  let certification;
  try {
    // The demo's members call this mock seller, wherever it listens (a MOCK_SELLER_URL given wins).
    const sellerUrl = process.env.MOCK_SELLER_URL ?? demoSellerUrl(seller.url, env.MOCK_SELLER_PUBLIC_URL);
    store = await openGatewayStore({ ...process.env, MOCK_SELLER_URL: sellerUrl });
    if (seedingEnabled()) {
      const moved = await pointSeededMembersAt(store, sellerUrl);
      if (moved.length > 0)
        console.error(
          `start: the demo's members ${moved.map((m) => m.id).join(', ')} now call ${sellerUrl} (they called ${[...new Set(moved.map((m) => m.was))].join(', ')})`,
        );
    }
    const directory = createDirectory(store);
    // The gateway's forwarded calls, shown by the inspector on the internal port; metrics served there too.
    const exchanges = createExchangeLog({ limit: 500 });
    const metrics = createGatewayMetrics({ store });
    gateway = await startGatewayServer(process.env, { store, directory, exchanges, metrics });
    // Certification jobs from this store, each run in a child process (never on the gateway's event loop).
    certification = startCertificationWorker({ store });
    internal = await startInternalApi({ store, directory, exchanges, metrics, certificationWorker: certification });
  } catch (error) {
    await certification?.stop();
    await gateway?.close();
    await store?.close();
    await seller.close();
    throw error;
  }
  const openStore = store;
  const internalApi = internal;
  const worker = certification;
  const base = gateway.url;
  console.error(`
Federated Gateway (development)
  gateway       ${base}            (GET ${base}/health)
  mock seller   ${seller.url}/seller     (scenario ${scenario}; control ${seller.url}/__admin, journal ${seller.url}/__admin/journal)
  internal API  ${internalApi.url}/internal/users/create   (Authorization: Bearer $INTERNAL_API_TOKEN; development default in docs/internal-api.md)
  inspectors    ${seller.url}/__admin/ui (mock seller)   ${internalApi.url}/inspector#token=<INTERNAL_API_TOKEN> (gateway's forwarded calls)
  metrics       ${internalApi.url}/metrics   (Prometheus; same credential)
  certification npm run certification -- request <member> --wait   (a worker runs here; docs/gateway/certification.md)
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
    // The certification worker releases its jobs and stops its children before the store closes.
    void Promise.all([gateway.close(), internalApi.close(), worker.stop()])
      .catch((error) => console.error(`start: shutdown: ${(error as Error).message}`))
      .then(() => openStore.close())
      .then(() => seller.close())
      .then(() => process.exit(0));
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
} catch (error) {
  console.error(`start: ${(error as Error).message}`);
  process.exit(1);
}
