import { reportFileArg } from './report-file-arg';
import { headerArgs, strictArgs, usageFailure, UsageError, type Parsed } from './command-line';
import type { CommandIo } from './command-io';
import { parseDuration, sellerAndCatalogue, wholeNumber } from './explore-options';
import type { CatalogueSource } from '../verification/explore/catalogue-source';
import { DEFAULT_REPLAY_DIR } from '../verification/load/replay-file';
import { DEFAULT_MIX, parseMix, type LoadMix } from '../verification/load/load-mix';
import type { LoadModel, Slo } from '../verification/load/load-report';
import { parseSlos, SloSyntaxError } from '../verification/load/slo';
import {
  DEFAULT_CONCURRENCIES,
  DEFAULT_MAX_IN_FLIGHT,
  defaultMaxRequests,
  MAX_RATE,
} from '../verification/load/load-budget';

// `load …`: the command line of a load run, checked before anything is sent. The
// defaults are safe for a vendor's staging system: the gateway's own deadline (5000 ms, a
// member's default timeout_ms) and concurrency cap (GATEWAY_MEMBER_CONCURRENCY, 64) as the top
// step, 10 s a step, and a bound on requests sized from the steps — printed before the run starts.

export const LOAD_USAGE = `Usage: load --seller-url <url> (--state-map <file> | --states-url <url>) [options]

Your system under the gateway's load: generated requests (as explore draws them) in the gateway's
operation mix, ramped in steps, every reply checked against the schema and every reply rule. A
broken rule fails the run at any step; the knee is the highest step with p99 under the deadline,
no timeout and no error. Closed model (--concurrency): a number of requests in flight, each sent
when the one before it answered (a stalling seller hides in the figures; the report warns). Open
model (--rate): requests on a schedule whatever the replies do, latency from the intended send.

  --seller-url <url>        your seller system's endpoint (every request is POSTed here)
  --state-map <file>        your catalogue: the state map's values and its "explore" section
  --states-url <url>        or: our mock seller's provider-state URL (…/__admin/provider-state)
  --orders                  include place order in the mix: REAL orders, fresh PO numbers (default: none)
  --concurrency <list>      closed model: the steps, e.g. 1,2,4,8,16 (default 1,2,4,8,16,32,64)
  --max-concurrency <n>     or: powers of two from 1 up to n (and n itself)
  --rate <list>             open model: arrival rates in requests/s, e.g. 50,100,200,400
  --max-rate <n>            or: n/16, n/8, n/4, n/2 and n requests/s
  --max-in-flight <n>       open model: requests waiting at once before the next is dropped
                            (default 64, the gateway's per-member cap, past which it refuses)
  --step-seconds <s>        how long each step runs (default 10)
  --timeout <ms>            the gateway's deadline for your replies (default 5000, a member's
                            default timeout_ms; ask your gateway operator for yours)
  --mix <weights>           operation shares (default item_inquiry=70,place_order=10,invoice=10,statement=10)
  --max-requests <n>        the most requests the run may send (default: sized from the steps so
                            every step runs whole; printed before the first is sent)
  --time-limit <t>          end the run after t (e.g. 90s, 5m): the step under way is cut, the rest
                            do not run, and the report says so (default: none)
  --min-concurrency <n>     closed model: fail (exit 1) when the knee is below n (default: no gate;
                            a run whose first step does not hold, or is not measured whole, exits 1)
  --min-rate <n>            open model: fail (exit 1) when the knee is below n requests/s (default: as above)
  --slo <list>              thresholds checked at every step and for the run, e.g.
                            'p95<300ms,p99<1s,errors<0.1%,timeouts=0' (p50 p90 p95 p99 max in ms or s;
                            rps; errors, timeouts, dropped as counts or %); a breach fails the run
  --abort-on-fail           stop at the first step that breaches an --slo (the rest: not run)
  --seed <n>                the generator's seed (default: random, printed)
  --header <name: value>    add a header to every request to your system; repeatable
  --json <file>             also write the report as JSON
  --junit <file>            also write JUnit XML (a test case per step, rule, SLO and the gate)
  --ctrf <file>             also write the same test cases as CTRF JSON (ctrf.io)
  --html <file>             also write one self-contained HTML page: latency and throughput charts
  --replay-dir <dir>        where replay files of failures seen only under concurrency go (default verify-replays)
  --help                    this text

Whether orders are placed, and the bound on requests, on stderr before the first is sent;
progress per step on stderr; the table, the failures and the verdict on stdout. A ramp cut short
lists the steps not run: the knee reads "at least N", a gate or an SLO that needs them fails.
Exit 0: every reply correct, the first step held (the knee at least the gate), every SLO held;
1: otherwise (a run that measured no step whole says NOT MEASURED); 2: bad
usage, an unusable catalogue, or your system unreachable at start; 130/143: stopped by
SIGINT/SIGTERM (within a second, with a partial report saying what was measured).
`;

export interface LoadCliOptions {
  sellerUrl: string;
  catalogue: CatalogueSource;
  model: LoadModel;
  /** Concurrencies (closed) or rates (open). */
  levels: number[];
  maxInFlight: number;
  stepSeconds: number;
  timeoutMs: number;
  mix: LoadMix;
  /** --orders: place order in the mix (real orders); off unless asked. */
  orders: boolean;
  /** Lines for stderr about the flags as given (an old spelling), before the run. */
  notes: string[];
  maxRequests: number;
  maxRequestsSource: 'given' | 'sized from the steps';
  timeLimitMs?: number;
  /** --min-concurrency or --min-rate (0 when not given). */
  minLevel: number;
  /** Whether the vendor gave that gate: a verdict names only the flags given. */
  minLevelGiven: boolean;
  slos: Slo[];
  abortOnFail: boolean;
  seed?: number;
  headers: Record<string, string>;
  json?: string;
  junit?: string;
  ctrf?: string;
  html?: string;
  replayDir: string;
}

/** 1,2,4,8 — rising, each from 1 to max. */
function risingList(flag: string, value: string, max: number): number[] {
  const list = value.split(',').map((v) => wholeNumber(flag, v.trim(), 1, max));
  for (let i = 1; i < list.length; i++)
    if (list[i] <= list[i - 1]) throw new UsageError(`${flag} must rise step by step, got '${value}'`);
  return list;
}

/** n/16, n/8, n/4, n/2, n — rounded up, each at least 1, no repeats. */
export function ratesUpTo(n: number): number[] {
  return [...new Set([16, 8, 4, 2, 1].map((d) => Math.max(1, Math.ceil(n / d))))];
}

/** Every --slo given (each a comma-separated list), or a usage error naming the expression. */
function sloArgs(given: string[] | undefined): Slo[] {
  try {
    return (given ?? []).flatMap(parseSlos);
  } catch (error) {
    if (!(error instanceof SloSyntaxError)) throw error;
    throw new UsageError(`--slo: ${error.message}`);
  }
}

/** 1, 2, 4, … up to n, and n itself. */
export function doublingUpTo(n: number): number[] {
  const out: number[] = [];
  for (let c = 1; c < n; c *= 2) out.push(c);
  out.push(n);
  return out;
}

const loadFlags = (argv: string[]) =>
  strictArgs(argv, {
    'seller-url': { type: 'string' },
    'state-map': { type: 'string' },
    'states-url': { type: 'string' },
    orders: { type: 'boolean', default: false },
    concurrency: { type: 'string' },
    'max-concurrency': { type: 'string' },
    rate: { type: 'string' },
    'max-rate': { type: 'string' },
    'max-in-flight': { type: 'string' },
    'min-rate': { type: 'string' },
    slo: { type: 'string', multiple: true },
    'abort-on-fail': { type: 'boolean', default: false },
    ctrf: { type: 'string' },
    'step-seconds': { type: 'string', default: '10' },
    timeout: { type: 'string', default: '5000' },
    mix: { type: 'string' },
    // The default since orders became opt-in: accepted until 1.0, with a note.
    'no-orders': { type: 'boolean', default: false },
    'max-requests': { type: 'string' },
    'time-limit': { type: 'string' },
    'min-concurrency': { type: 'string' },
    seed: { type: 'string' },
    header: { type: 'string', multiple: true },
    json: { type: 'string' },
    junit: { type: 'string' },
    html: { type: 'string' },
    'replay-dir': { type: 'string', default: DEFAULT_REPLAY_DIR },
    help: { type: 'boolean', default: false },
  });
type LoadFlags = ReturnType<typeof loadFlags>;

/** Closed or open, from the flags given; flags of both models together are refused. */
function modelOf(values: LoadFlags): LoadModel {
  const closedFlags = (['concurrency', 'max-concurrency', 'min-concurrency'] as const).filter(
    (f) => values[f] !== undefined,
  );
  const openFlags = (['rate', 'max-rate', 'max-in-flight', 'min-rate'] as const).filter((f) => values[f] !== undefined);
  if (closedFlags.length > 0 && openFlags.length > 0)
    throw new UsageError(
      `--${closedFlags[0]} (closed model) and --${openFlags[0]} (open model) do not go together: choose one model`,
    );
  if (values.concurrency !== undefined && values['max-concurrency'] !== undefined)
    throw new UsageError('give --concurrency or --max-concurrency, not both');
  if (values.rate !== undefined && values['max-rate'] !== undefined)
    throw new UsageError('give --rate or --max-rate, not both');
  const model: LoadModel = values.rate !== undefined || values['max-rate'] !== undefined ? 'open' : 'closed';
  if (model === 'closed' && openFlags.length > 0)
    throw new UsageError(`--${openFlags[0]} belongs to the open model: give --rate or --max-rate too`);
  return model;
}

/** The ramp's steps: concurrencies (closed) or rates (open), listed or doubling up to a maximum. */
function levelsOf(values: LoadFlags, model: LoadModel): number[] {
  if (model === 'open')
    return values.rate !== undefined
      ? risingList('--rate', values.rate, MAX_RATE)
      : ratesUpTo(wholeNumber('--max-rate', values['max-rate']!, 1, MAX_RATE));
  if (values.concurrency !== undefined) return risingList('--concurrency', values.concurrency, 1024);
  if (values['max-concurrency'] !== undefined)
    return doublingUpTo(wholeNumber('--max-concurrency', values['max-concurrency'], 1, 1024));
  return [...DEFAULT_CONCURRENCIES];
}

/** The operation mix, and whether orders may be sent at all (only with --orders). */
function mixOf(values: LoadFlags): { mix: LoadMix; orders: boolean } {
  let mix = DEFAULT_MIX;
  if (values.mix !== undefined) {
    try {
      mix = parseMix(values.mix);
    } catch (error) {
      throw new UsageError(`--mix: ${(error as Error).message}`);
    }
  }
  if (values.orders && values['no-orders']) throw new UsageError('give --orders or --no-orders, not both');
  const orders = values.orders;
  if (!orders && Object.entries(mix).every(([op, w]) => op === 'place-order' || w === 0))
    throw new UsageError('--mix has only place_order, which needs --orders (real orders on your system)');
  return { mix, orders };
}

/** The SLOs, checked against the model and --abort-on-fail. */
function slosOf(values: LoadFlags, model: LoadModel): Slo[] {
  const slos = sloArgs(values.slo);
  const dropped = slos.find((s) => s.metric === 'dropped');
  if (model === 'closed' && dropped !== undefined)
    throw new UsageError(
      `--slo ${dropped.expression}: nothing is dropped in the closed model (dropped belongs to --rate)`,
    );
  if (values['abort-on-fail'] && slos.length === 0) throw new UsageError('--abort-on-fail needs an --slo to abort on');
  return slos;
}

export function parseLoadOptions(argv: string[]): LoadCliOptions {
  const values = loadFlags(argv);
  if (values.help) throw new UsageError('');
  const { sellerUrl, catalogue } = sellerAndCatalogue(values);
  const model = modelOf(values);
  const headers = headerArgs('--header', values.header);
  const { mix, orders } = mixOf(values);
  const levels = levelsOf(values, model);
  const slos = slosOf(values, model);
  const stepSeconds = parseDuration('--step-seconds', values['step-seconds']) / 1000;
  // No gate unless the vendor gave one: the verdict then names no flag (and still fails a run
  // whose first step did not hold, or was not measured whole).
  const minFlag = model === 'open' ? ('min-rate' as const) : ('min-concurrency' as const);
  const minGiven = values[minFlag];
  const minLevel =
    minGiven === undefined ? 0 : wholeNumber(`--${minFlag}`, minGiven, 0, model === 'open' ? MAX_RATE : 1024);
  return {
    sellerUrl,
    catalogue,
    model,
    levels,
    maxInFlight:
      values['max-in-flight'] !== undefined
        ? wholeNumber('--max-in-flight', values['max-in-flight'], 1, 4096)
        : DEFAULT_MAX_IN_FLIGHT,
    stepSeconds,
    timeoutMs: wholeNumber('--timeout', values.timeout, 1, 600_000),
    mix,
    orders,
    notes: values['no-orders']
      ? ['load: --no-orders is the default now (orders are placed only with --orders); the flag is accepted until 1.0']
      : [],
    ...(values['max-requests'] !== undefined
      ? {
          maxRequests: wholeNumber('--max-requests', values['max-requests'], 1, 100_000_000),
          maxRequestsSource: 'given' as const,
        }
      : {
          maxRequests: defaultMaxRequests(model, levels, stepSeconds),
          maxRequestsSource: 'sized from the steps' as const,
        }),
    ...(values['time-limit'] !== undefined ? { timeLimitMs: parseDuration('--time-limit', values['time-limit']) } : {}),
    minLevel,
    minLevelGiven: minGiven !== undefined,
    slos,
    abortOnFail: values['abort-on-fail'],
    ...(values.seed !== undefined ? { seed: wholeNumber('--seed', values.seed, 0, 2 ** 31 - 1) } : {}),
    headers,
    ...(values.json !== undefined ? { json: values.json } : {}),
    ...(values.junit !== undefined ? { junit: values.junit } : {}),
    ...(values.ctrf !== undefined ? { ctrf: values.ctrf } : {}),
    ...(values.html !== undefined ? { html: reportFileArg('--html', values.html) } : {}),
    replayDir: values['replay-dir'],
  };
}

/** `load`'s command line once: the options, or the exit code once --help or a usage error was answered. */
export function readLoadCommandLine(argv: string[], io: CommandIo): Parsed<LoadCliOptions> {
  try {
    const options = parseLoadOptions(argv);
    for (const note of options.notes) io.stderr(`${note}\n`);
    return { kind: 'run', options };
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    if (error.message === '') {
      io.stdout(LOAD_USAGE);
      return { kind: 'exit', code: 0 };
    }
    return { kind: 'exit', code: usageFailure('load', error, io) };
  }
}
