import { PACT_FILE } from '../contracts/pact/pact-names';
import type { PactSource, Publication } from '../verification/verify/verifier-options';
import { brokerEnvironment, BrokerSettingsError } from '../contracts/pact/broker-cli';
import { reportFileArg } from './report-file-arg';
import { headerArgs, httpUrlArg, integerArg, strictArgs, usageFailure, UsageError, type Parsed } from './command-line';
import type { CommandIo } from './command-io';
import { DEFAULT_MAX_REPLY_BYTES, MAX_REPLY_BYTES_CEILING } from '../verification/reply-within-limit';

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
  --ctrf <file>             also write the same test cases as CTRF JSON (ctrf.io)
  --json <file>             also write the report as JSON
  --html <file>             also write the report as one self-contained HTML page (both verdicts,
                            each failure's request and reply side by side, the broken path marked)
  --timeout <ms>            how long your system may take per exchange (default 30000); a later
                            answer is reported as "answered after N ms, over the limit"
  --max-reply-bytes <n>     the largest reply read from your system (default ${DEFAULT_MAX_REPLY_BYTES}, 8 MiB); a
                            larger one is stopped and reported as reply.too-large
  --not-offered <state>     an optional interaction's state your system does not offer (the pact marks
                            which are optional, e.g. 'invoice has a downloadable copy'); reported
                            NOT OFFERED (optional), not run; repeatable (or "not_offered" in the state map)
  --since <pact | dir | ref> the contract you last passed (a pact file, a directory of the contract's
                            files or a git ref, as compat takes): its changes are printed first and every
                            new or changed interaction is marked in the report [changed since …]
  --pending                 new and changed interactions (since --since; without it, those the pact
                            marks pending) run as PENDING: verified and reported, never failing the
                            run, as Pact's pending pacts (with --broker-url: Pact's --enable-pending)
  --allow-example-values    with --state-map: run although the map gives no value for some states'
                            parameters (the contract's examples are sent; listed at start)
  --verbose                 also print the Pact verifier's own output (stderr)
  --help                    this text

Generated exchanges, load and replaying a failure are commands of their own: explore, load, replay.

Exit 0: every interaction passed Pact and the reply rules (or is optional and declared not offered,
or pending: an interaction the pact marks \`pending: true\` never fails the run, with or without --pending);
1: any did not (or a state could not be set up); 2: bad usage, an unreadable state map or pact, a
--since that is not a pact, directory or git ref of one (or another consumer's), a
--not-offered state that is not optional, a state map lacking values (without --allow-example-values),
or your system cannot be reached at start;
130/143: stopped by SIGINT/SIGTERM (the partial report says what did not run).
`;

export interface KitOptions {
  sellerUrl: string;
  states: { kind: 'url'; url: string } | { kind: 'map'; file: string } | { kind: 'none' };
  pacts: PactSource;
  publish?: Publication;
  headers: Record<string, string>;
  junit?: string;
  ctrf?: string;
  json?: string;
  html?: string;
  timeoutMs: number;
  maxReplyBytes: number;
  verbose: boolean;
  /** States declared not offered on the command line (the state map may declare more). */
  notOffered: string[];
  allowExampleValues: boolean;
  /** The contract the seller last passed (`--since`): a pact file, a directory or a git ref. */
  since?: string;
  /** `--pending`: new and changed interactions since `since` run as pending. */
  pending: boolean;
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
  if (broker.PACT_BROKER_USERNAME !== undefined)
    return { username: broker.PACT_BROKER_USERNAME, password: broker.PACT_BROKER_PASSWORD ?? '' };
  return {};
}

type KitFlags = ReturnType<typeof kitFlags>;

const kitFlags = (argv: string[]) =>
  strictArgs(argv, {
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
    ctrf: { type: 'string' },
    json: { type: 'string' },
    html: { type: 'string' },
    timeout: { type: 'string', default: '30000' },
    'max-reply-bytes': { type: 'string', default: String(DEFAULT_MAX_REPLY_BYTES) },
    verbose: { type: 'boolean', default: false },
    'not-offered': { type: 'string', multiple: true },
    'allow-example-values': { type: 'boolean', default: false },
    since: { type: 'string' },
    pending: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  });

/** Flags that need, or exclude, one another. */
function checkCombinations(values: KitFlags): void {
  if (values['seller-url'] === undefined) throw new UsageError('--seller-url is required');
  if (values['states-url'] !== undefined && values['state-map'] !== undefined)
    throw new UsageError('give --states-url or --state-map, not both');
  if (values.pact !== undefined && values['broker-url'] !== undefined)
    throw new UsageError('give --pact or --broker-url, not both');
  if (values['not-offered'] !== undefined && values['broker-url'] !== undefined)
    throw new UsageError(
      "--not-offered needs --pact: a broker's pacts are verified in one run, the kit cannot leave an interaction out",
    );
  if (values['allow-example-values'] && values['state-map'] === undefined)
    throw new UsageError('--allow-example-values needs --state-map');
  if (values['consumer-branch'] !== undefined && values['broker-url'] === undefined)
    throw new UsageError('--consumer-branch needs --broker-url');
  if (values.since !== undefined) {
    if (values.since === '')
      throw new UsageError('--since needs a value: the pact, directory or git ref you last passed');
    if (values['broker-url'] !== undefined)
      throw new UsageError(
        "--since needs --pact: a broker's pacts are fetched in the run, the kit cannot compare them first",
      );
    if ((values.pact?.length ?? 0) > 1) throw new UsageError('--since compares one pact: give one --pact');
  }
  if (values.publish) {
    if (values['broker-url'] === undefined)
      throw new UsageError('--publish needs --broker-url: results are published to the broker the pacts came from');
    if (values['provider-version'] === undefined) throw new UsageError('--publish needs --provider-version');
    if (values.branch === undefined) throw new UsageError('--publish needs --branch');
  }
}

/** The pact files, or the broker with its credentials from the environment. */
function pactSourceOf(values: KitFlags, env: NodeJS.ProcessEnv): PactSource {
  const brokerUrl = values['broker-url'];
  if (brokerUrl === undefined) return { kind: 'file', files: values.pact ?? [PACT_FILE] };
  return {
    kind: 'broker',
    brokerUrl: httpUrlArg('--broker-url', brokerUrl),
    ...brokerCredentials(env),
    ...(values['consumer-branch'] !== undefined ? { selectors: [{ branch: values['consumer-branch'] }] } : {}),
    ...(values.pending ? { enablePending: true } : {}),
  };
}

export function parseKitOptions(argv: string[], env: NodeJS.ProcessEnv = process.env): KitOptions {
  const values = kitFlags(argv);
  if (values.help) throw new UsageError('');
  checkCombinations(values);

  const timeoutMs = integerArg('--timeout', values.timeout, 1, 3_600_000);
  const maxReplyBytes = integerArg('--max-reply-bytes', values['max-reply-bytes'], 1, MAX_REPLY_BYTES_CEILING);
  const headers = headerArgs('--header', values.header);

  const pacts = pactSourceOf(values, env);

  return {
    sellerUrl: httpUrlArg('--seller-url', values['seller-url']!), // required by checkCombinations
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
    ...(values.ctrf !== undefined ? { ctrf: values.ctrf } : {}),
    ...(values.json !== undefined ? { json: values.json } : {}),
    ...(values.html !== undefined ? { html: reportFileArg('--html', values.html) } : {}),
    timeoutMs,
    maxReplyBytes,
    verbose: values.verbose ?? false,
    notOffered: values['not-offered'] ?? [],
    allowExampleValues: values['allow-example-values'] ?? false,
    ...(values.since !== undefined ? { since: values.since } : {}),
    pending: values.pending ?? false,
  };
}

/** `verify`'s command line once: the options, or the exit code once --help or a usage error was answered. */
export function readVerifyCommandLine(argv: string[], io: CommandIo): Parsed<KitOptions> {
  try {
    return { kind: 'run', options: parseKitOptions(argv, io.env) };
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    if (error.message === '') {
      io.stdout(USAGE);
      return { kind: 'exit', code: 0 };
    }
    return { kind: 'exit', code: usageFailure('verify', error, io) };
  }
}
