import { PACT_FILE } from '../contracts/pact/pact-names';
import type { PactSource, Publication } from '../contracts/verification/verifier-options';
import { brokerEnvironment, BrokerSettingsError } from '../contracts/pact/broker-cli';
import { headerArgs, httpUrlArg, integerArg, strictArgs, UsageError } from './command-line';
import { DEFAULT_MAX_REPLY_BYTES, MAX_REPLY_BYTES_CEILING } from '../contracts/verification/reply-within-limit';

// `npm run verify -- …`: the vendor's command line, checked before anything starts, with a
// message naming the flag at fault.

export const USAGE = `Usage: verify --seller-url <url> [options]      (in this repository: npm run verify -- …)

  --seller-url <url>        your seller system's endpoint (every request is POSTed here)
  --states-url <url>        your provider-state callback: POST {state, params, action}
  --state-map <file>        or: a state map (state → your values); the kit answers the states itself
  --pact <file>             the pact to verify (default: the one this package ships; pact-path prints where); repeatable
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
  --max-reply-bytes <n>     the largest reply read from your system (default ${DEFAULT_MAX_REPLY_BYTES}, 8 MiB); a
                            larger one is stopped and reported as reply.too-large
  --verbose                 also print the Pact verifier's own output (stderr)
  --explore                 generated exchanges from your catalogue instead of the pact (verify --explore --help)
  --help                    this text

Exit 0: every interaction passed Pact and the reply rules; 1: any did not (or a state could not be
set up); 2: bad usage, an unreadable state map or pact, or your system cannot be reached at start;
130/143: stopped by SIGINT/SIGTERM (the partial report says what did not run).
`;

export interface KitOptions {
  sellerUrl: string;
  states: { kind: 'url'; url: string } | { kind: 'map'; file: string } | { kind: 'none' };
  pacts: PactSource;
  publish?: Publication;
  headers: Record<string, string>;
  junit?: string;
  json?: string;
  timeoutMs: number;
  maxReplyBytes: number;
  verbose: boolean;
}

/** The broker credentials from the environment (read through its schema); a bad variable is a usage error. */
function brokerCredentials(env: NodeJS.ProcessEnv): { token?: string; username?: string; password?: string } {
  let broker;
  try {
    broker = brokerEnvironment(env);
  } catch (error) {
    throw error instanceof BrokerSettingsError ? new UsageError(error.message) : error;
  }
  if (broker.PACT_BROKER_TOKEN !== undefined) return { token: broker.PACT_BROKER_TOKEN };
  if (broker.PACT_BROKER_USERNAME !== undefined) return { username: broker.PACT_BROKER_USERNAME, password: broker.PACT_BROKER_PASSWORD ?? '' };
  return {};
}

export function parseKitOptions(argv: string[], env: NodeJS.ProcessEnv = process.env): KitOptions {
  const values = strictArgs(argv, {
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
    'max-reply-bytes': { type: 'string', default: String(DEFAULT_MAX_REPLY_BYTES) },
    verbose: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  });
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

  const timeoutMs = integerArg('--timeout', values.timeout, 1, 3_600_000);
  const maxReplyBytes = integerArg('--max-reply-bytes', values['max-reply-bytes'], 1, MAX_REPLY_BYTES_CEILING);
  const headers = headerArgs('--header', values.header);

  const brokerUrl = values['broker-url'];
  const pacts: PactSource =
    brokerUrl !== undefined
      ? {
          kind: 'broker',
          brokerUrl: httpUrlArg('--broker-url', brokerUrl),
          ...brokerCredentials(env),
          ...(values['consumer-branch'] !== undefined ? { selectors: [{ branch: values['consumer-branch'] }] } : {}),
        }
      : { kind: 'file', files: values.pact ?? [PACT_FILE] };

  return {
    sellerUrl: httpUrlArg('--seller-url', values['seller-url']),
    states:
      values['states-url'] !== undefined
        ? { kind: 'url', url: httpUrlArg('--states-url', values['states-url']) }
        : values['state-map'] !== undefined
          ? { kind: 'map', file: values['state-map'] }
          : { kind: 'none' },
    pacts,
    ...(values.publish ? { publish: { providerVersion: values['provider-version']!, branch: values.branch! } } : {}),
    headers,
    ...(values.junit !== undefined ? { junit: values.junit } : {}),
    ...(values.json !== undefined ? { json: values.json } : {}),
    timeoutMs,
    maxReplyBytes,
    verbose: values.verbose ?? false,
  };
}
