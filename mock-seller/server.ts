import { parseArgs } from 'node:util';
import { ScenarioError } from './errors';
import { startMockSeller, startPactReplay } from './listen';

// npm run mock-seller -- [--scenario <file> | --pact <file>] --port <n> [--host <h>] [--public-url <url>]
// Only wires and listens; the app is built by createMockSeller (or createPactReplay with --pact).

const DEFAULT_SCENARIO = 'fixtures/scenarios/default.json';

const { values } = parseArgs({
  options: {
    scenario: { type: 'string' },
    pact: { type: 'string' },
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
if (values.pact !== undefined && values.scenario !== undefined) {
  console.error('mock seller: --pact and --scenario exclude each other (a pact replay serves only the pact\'s interactions)');
  process.exit(2);
}

const onStop = (close: () => Promise<void>) => {
  const stop = (signal: string) => {
    console.log(`mock seller: ${signal}, closing`);
    close().then(() => process.exit(0));
    setTimeout(() => process.exit(0), 3000).unref();
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
};

try {
  if (values.pact !== undefined) {
    const running = await startPactReplay({ pact: values.pact, port, host: values.host, onMatch: (d) => console.log(`mock seller: replayed '${d}'`) });
    console.log(`mock seller: replaying ${running.interactions} interactions from ${values.pact}`);
    console.log(`mock seller: listening on ${running.url} (seller endpoint POST ${running.url}/seller, interactions GET ${running.url}/__replay/interactions)`);
    onStop(running.close);
  } else {
    const scenario = values.scenario ?? DEFAULT_SCENARIO;
    const running = await startMockSeller({ scenario, port, host: values.host, publicUrl: values['public-url'] });
    console.log(`mock seller: scenario '${running.seller.data.scenario.name}' from ${scenario}`);
    console.log(`mock seller: listening on ${running.url} (seller endpoint POST ${running.url}/seller, control ${running.url}/__admin)`);
    onStop(running.close);
  }
} catch (error) {
  if (error instanceof ScenarioError) {
    console.error(`mock seller: ${error.message}`);
    for (const issue of error.issues) console.error(`  ${issue.path || '/'}: ${issue.message}`);
  } else {
    console.error(`mock seller: ${(error as Error).message}`);
  }
  process.exit(1);
}
