import { parseArgs } from 'node:util';
import { ScenarioError } from './errors';
import { startMockSeller } from './listen';

// npm run mock-seller -- --scenario <file> --port <n> [--host <h>] [--public-url <url>]
// Only wires and listens; the app is built by createMockSeller.

const { values } = parseArgs({
  options: {
    scenario: { type: 'string', default: 'fixtures/scenarios/default.json' },
    port: { type: 'string', default: process.env.MOCK_SELLER_PORT ?? '9090' },
    host: { type: 'string', default: process.env.MOCK_SELLER_HOST ?? '127.0.0.1' },
    'public-url': { type: 'string', default: process.env.MOCK_SELLER_PUBLIC_URL },
  },
});

const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`mock seller: --port must be 0-65535, got '${values.port}'`);
  process.exit(2);
}

try {
  const running = await startMockSeller({ scenario: values.scenario, port, host: values.host, publicUrl: values['public-url'] });
  console.log(`mock seller: scenario '${running.seller.data.scenario.name}' from ${values.scenario}`);
  console.log(`mock seller: listening on ${running.url} (seller endpoint POST ${running.url}/seller, control ${running.url}/__admin)`);
  const stop = (signal: string) => {
    console.log(`mock seller: ${signal}, closing`);
    running.close().then(() => process.exit(0));
    setTimeout(() => process.exit(0), 3000).unref();
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
} catch (error) {
  if (error instanceof ScenarioError) {
    console.error(`mock seller: ${error.message}`);
    for (const issue of error.issues) console.error(`  ${issue.path || '/'}: ${issue.message}`);
  } else {
    console.error(`mock seller: ${(error as Error).message}`);
  }
  process.exit(1);
}
