import { integerArg, strictArgs, usageFailure, UsageError } from './command-line';
import { Type } from '@sinclair/typebox';
import { EnvInteger, EnvString, EnvUrl, Optional, readEnvironment } from '../shared/environment';
import { DEFAULT_SCENARIO_PATH, ScenarioError, startMockSeller, startPactReplay } from '../mock-seller/index';
import type { CommandIo } from './command-io';

// `mock-seller`: a seller system that keeps the contract (or breaks it on demand) from a
// scenario, or replays exactly a pact's interactions. Runs until SIGINT/SIGTERM.

export const MOCK_SELLER_USAGE = `Usage: mock-seller [--scenario <file> | --pact <file>] [--port <n>] [--host <h>] [--public-url <url>]

  --scenario <file>    the seller's data (default MOCK_SELLER_SCENARIO or the toolkit's default scenario)
  --pact <file>        serve exactly this pact's interactions instead
  --port <n>           port (default MOCK_SELLER_PORT or 9090; 0 = any free port, printed)
  --host <h>           address (default MOCK_SELLER_HOST or 127.0.0.1)
  --public-url <url>   base of link_url in invoices and statements (default: the request's origin)
  --help               this text

Prints where it listens on stdout; control API under /__admin: see the mock seller's guide,
node_modules/@federated-gateway/toolkit/mock-seller/README.md.
Exit 0 when stopped by SIGINT/SIGTERM; 1 a scenario that does not load; 2 bad usage or a port in use.
`;

export const MOCK_SELLER_ENVIRONMENT = Type.Object({
  MOCK_SELLER_PORT: EnvInteger({ default: 9090, maximum: 65_535, description: 'mock seller port (0: any free port)' }),
  MOCK_SELLER_HOST: EnvString({ default: '127.0.0.1', description: 'address the mock seller listens on' }),
  MOCK_SELLER_SCENARIO: Optional(
    EnvString({ defaultText: 'fixtures/scenarios/default.json', description: "the mock seller's scenario file" }),
  ),
  MOCK_SELLER_PUBLIC_URL: Optional(
    EnvUrl({ description: "base of link_url in invoices and statements; default the request's origin" }),
  ),
});

export async function mockSellerCommand(argv: string[], io: CommandIo): Promise<number> {
  let env;
  try {
    env = readEnvironment(MOCK_SELLER_ENVIRONMENT, io.env);
  } catch (error) {
    io.stderr(`mock-seller: ${(error as Error).message}\n`);
    return 2;
  }
  let values;
  let port: number;
  try {
    values = strictArgs(argv, {
      scenario: { type: 'string' },
      pact: { type: 'string' },
      port: { type: 'string', default: String(env.MOCK_SELLER_PORT) },
      host: { type: 'string', default: env.MOCK_SELLER_HOST },
      'public-url': {
        type: 'string',
        ...(env.MOCK_SELLER_PUBLIC_URL === undefined ? {} : { default: env.MOCK_SELLER_PUBLIC_URL }),
      },
      help: { type: 'boolean', default: false },
    });
    port = integerArg('--port', values.port, 0, 65_535);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return usageFailure('mock-seller', error, io);
  }
  if (values.help) {
    io.stdout(MOCK_SELLER_USAGE);
    return 0;
  }
  if (values.pact !== undefined && values.scenario !== undefined) {
    io.stderr(
      "mock-seller: --pact and --scenario exclude each other (a pact replay serves only the pact's interactions)\n",
    );
    return 2;
  }

  let close: () => Promise<void>;
  try {
    close = await startServing(
      { ...values, port, scenario: values.scenario ?? env.MOCK_SELLER_SCENARIO ?? DEFAULT_SCENARIO_PATH },
      io,
    );
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') {
      io.stderr(`mock-seller: cannot listen on ${values.host}:${port}: the port is in use\n`);
      return 2;
    }
    io.stderr(`mock-seller: ${(error as Error).message}\n`);
    if (!(error instanceof ScenarioError)) return 1;
    // A scenario it cannot serve is bad input: nothing was started.
    for (const issue of error.issues) io.stderr(`  ${issue.path || '/'}: ${issue.message}\n`);
    return 2;
  }

  await new Promise<void>((resolve) => {
    if (io.signal.aborted) resolve();
    else io.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  io.stderr(`mock seller: ${String(io.signal.reason)}, closing\n`);
  await close();
  return 0;
}

interface ServeOptions {
  pact?: string;
  scenario: string;
  port: number;
  host: string;
  'public-url'?: string;
}

/** Starts the pact replay (--pact) or the scenario's mock seller, says where it listens; resolves with its close. */
async function startServing(options: ServeOptions, io: CommandIo): Promise<() => Promise<void>> {
  const { pact, scenario, port, host } = options;
  if (pact !== undefined) {
    const running = await startPactReplay({
      pact,
      port,
      host,
      onMatch: (d) => io.stderr(`mock seller: replayed '${d}'\n`),
    });
    io.stdout(`mock seller: replaying ${running.interactions} interactions from ${pact}\n`);
    io.stdout(
      `mock seller: listening on ${running.url} (seller endpoint POST ${running.url}/seller, interactions GET ${running.url}/__replay/interactions)\n`,
    );
    return running.close;
  }
  const running = await startMockSeller({ scenario, port, host, publicUrl: options['public-url'] });
  io.stdout(`mock seller: scenario '${running.seller.data.scenario.name}' from ${scenario}\n`);
  io.stdout(
    `mock seller: listening on ${running.url} (seller endpoint POST ${running.url}/seller, control ${running.url}/__admin)\n`,
  );
  return running.close;
}
