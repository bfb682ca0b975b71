import { parseArgs } from 'node:util';
import { PACT_FILE } from '../pact/pact-names';
import type { PactSource, Publication } from './verifier-options';

// `npm run verify -- …`: the vendor's command line, checked before anything starts, with a
// message naming the flag at fault.

export const USAGE = `Usage: verify --seller-url <url> [options]      (in this repository: npm run verify -- …)

  --seller-url <url>        your seller system's endpoint (every request is POSTed here)
  --states-url <url>        your provider-state callback: POST {state, params, action}
  --state-map <file>        or: a state map (state → your values); the kit answers the states itself
  --pact <file>             the pact to verify (default: contracts/pacts/federated-gateway-seller-system.json); repeatable
  --broker-url <url>        or: fetch the pacts from a Pact Broker (PACT_BROKER_TOKEN, or
                            PACT_BROKER_USERNAME/PACT_BROKER_PASSWORD, from the environment)
  --consumer-branch <b>     with --broker-url: verify the consumer's pacts of this branch (default: main branch + deployed)
  --publish                 publish the results to the broker (needs --provider-version, --branch)
  --provider-version <v>    your system's version, e.g. a git SHA
  --branch <b>              your system's branch
  --header <name: value>    add a header to every request to your system (e.g. authorization); repeatable
  --junit <file>            also write JUnit XML for CI
  --json <file>             also write the report as JSON
  --timeout <ms>            how long your system may take per exchange (default 30000); a later
                            answer is reported as "answered after N ms, over the limit"
  --verbose                 also print the Pact verifier's own output (stderr)
  --explore                 generated exchanges from your catalogue instead of the pact (verify --explore --help)
  --help                    this text

Exit 0: every interaction passed Pact and the reply rules; 1: any did not (or a state could not be
set up); 2: bad usage, an unreadable state map or pact, or your system cannot be reached at start;
130/143: stopped by SIGINT/SIGTERM (the partial report says what did not run).
`;

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export interface KitOptions {
  sellerUrl: string;
  states: { kind: 'url'; url: string } | { kind: 'map'; file: string } | { kind: 'none' };
  pacts: PactSource;
  publish?: Publication;
  headers: Record<string, string>;
  junit?: string;
  json?: string;
  timeoutMs: number;
  verbose: boolean;
}

function url(flag: string, value: string): string {
  try {
    const parsed = new URL(value);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('not http(s)');
    return value;
  } catch {
    throw new UsageError(`${flag} must be an http(s) URL, got '${value}'`);
  }
}

export function parseKitOptions(argv: string[], env: NodeJS.ProcessEnv = process.env): KitOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        'seller-url': { type: 'string' },
        'states-url': { type: 'string' },
        'state-map': { type: 'string' },
        pact: { type: 'string', multiple: true },
        'broker-url': { type: 'string' },
        'consumer-branch': { type: 'string' },
        publish: { type: 'boolean', default: false },
        'provider-version': { type: 'string' },
        branch: { type: 'string' },
        header: { type: 'string', multiple: true },
        junit: { type: 'string' },
        json: { type: 'string' },
        timeout: { type: 'string', default: '30000' },
        verbose: { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help) throw new UsageError('');
  if (values['seller-url'] === undefined) throw new UsageError('--seller-url is required');
  if (values['states-url'] !== undefined && values['state-map'] !== undefined) throw new UsageError('give --states-url or --state-map, not both');
  if (values.pact !== undefined && values['broker-url'] !== undefined) throw new UsageError('give --pact or --broker-url, not both');
  if (values['consumer-branch'] !== undefined && values['broker-url'] === undefined) throw new UsageError('--consumer-branch needs --broker-url');
  if (values.publish) {
    if (values['broker-url'] === undefined) throw new UsageError('--publish needs --broker-url: results are published to the broker the pacts came from');
    if (values['provider-version'] === undefined) throw new UsageError('--publish needs --provider-version');
    if (values.branch === undefined) throw new UsageError('--publish needs --branch');
  }

  const timeoutMs = Number(values.timeout);
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > 3_600_000) throw new UsageError(`--timeout must be a whole number of milliseconds, 1–3600000, got '${values.timeout}'`);

  const headers: Record<string, string> = {};
  for (const header of values.header ?? []) {
    const colon = header.indexOf(':');
    if (colon <= 0) throw new UsageError(`--header must be 'name: value', got '${header}'`);
    headers[header.slice(0, colon).trim().toLowerCase()] = header.slice(colon + 1).trim();
  }

  const brokerUrl = values['broker-url'];
  const pacts: PactSource =
    brokerUrl !== undefined
      ? {
          kind: 'broker',
          brokerUrl: url('--broker-url', brokerUrl),
          ...(env.PACT_BROKER_TOKEN ? { token: env.PACT_BROKER_TOKEN } : {}),
          ...(env.PACT_BROKER_USERNAME ? { username: env.PACT_BROKER_USERNAME, password: env.PACT_BROKER_PASSWORD ?? '' } : {}),
          ...(values['consumer-branch'] !== undefined ? { selectors: [{ branch: values['consumer-branch'] }] } : {}),
        }
      : { kind: 'file', files: values.pact ?? [PACT_FILE] };

  return {
    sellerUrl: url('--seller-url', values['seller-url']),
    states:
      values['states-url'] !== undefined
        ? { kind: 'url', url: url('--states-url', values['states-url']) }
        : values['state-map'] !== undefined
          ? { kind: 'map', file: values['state-map'] }
          : { kind: 'none' },
    pacts,
    ...(values.publish ? { publish: { providerVersion: values['provider-version']!, branch: values.branch! } } : {}),
    headers,
    ...(values.junit !== undefined ? { junit: values.junit } : {}),
    ...(values.json !== undefined ? { json: values.json } : {}),
    timeoutMs,
    verbose: values.verbose ?? false,
  };
}
