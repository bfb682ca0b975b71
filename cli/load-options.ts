import { reportFileArg } from './report-file-arg';
import { parseArgs } from 'node:util';
import { headerArgs, UsageError } from './command-line';
import { parseDuration, sellerAndCatalogue, wholeNumber } from './explore-options';
import type { CatalogueSource } from '../verification/explore/catalogue-source';
import { DEFAULT_REPLAY_DIR } from './replay-files';
import { DEFAULT_MIX, parseMix, type LoadMix } from '../verification/load/load-mix';

// `verify --load …`: the command line of a load run, checked before anything is sent. The
// defaults are safe for a vendor's staging system: the gateway's own deadline (5000 ms, a
// member's default timeout_ms) and concurrency cap (GATEWAY_MEMBER_CONCURRENCY, 64) as the top
// step, 10 s a step, and at most 10,000 requests in all — printed before the run starts.

export const DEFAULT_CONCURRENCIES = [1, 2, 4, 8, 16, 32, 64];
export const DEFAULT_MAX_REQUESTS = 10_000;

export const LOAD_USAGE = `Usage: verify --load --seller-url <url> (--state-map <file> | --states-url <url>) [options]

Your system under the gateway's load: generated requests (as --explore draws them) in the
gateway's operation mix, the concurrency ramped in steps, EVERY reply checked against the schema
and every reply rule. The verdict names the knee: the highest step with p99 under the deadline,
no timeout, no error and no broken rule.

  --seller-url <url>        your seller system's endpoint (every request is POSTed here)
  --state-map <file>        your catalogue: the state map's values and its "explore" section
  --states-url <url>        or: our mock seller's provider-state URL (…/__admin/provider-state)
  --concurrency <list>      the steps, e.g. 1,2,4,8,16 (default 1,2,4,8,16,32,64)
  --max-concurrency <n>     or: powers of two from 1 up to n (and n itself)
  --step-seconds <s>        how long each step runs (default 10)
  --timeout <ms>            the gateway's deadline for your replies (default 5000, a member's
                            default timeout_ms; ask your gateway operator for yours)
  --mix <weights>           operation shares (default item_inquiry=70,place_order=10,invoice=10,statement=10)
  --no-orders               send no place order at all (a production system: no real orders)
  --max-requests <n>        the most requests the run may send (default 10000)
  --min-concurrency <n>     fail (exit 1) when the knee is below n (default 1)
  --seed <n>                the generator's seed (default: random, printed)
  --header <name: value>    add a header to every request to your system; repeatable
  --json <file>             also write the report as JSON
  --junit <file>            also write JUnit XML (one test case per step, one for the gate)
  --html <file>             also write one self-contained HTML page: latency and throughput against
                            concurrency as charts, the knee and the deadline marked, rule breaks per step
  --replay-dir <dir>        where replay files of failures that need company go (default verify-replays)
  --help                    this text

The bound on requests is printed on stderr before the first is sent; progress per step on
stderr; the table, the failures and the verdict on stdout. Exit 0: the knee is at least
--min-concurrency; 1: below it; 2: bad usage, an unusable catalogue, or your system cannot be
reached at start; 130/143: stopped by SIGINT/SIGTERM (within a second, with a partial report).
`;

export interface LoadCliOptions {
  sellerUrl: string;
  catalogue: CatalogueSource;
  concurrencies: number[];
  stepSeconds: number;
  timeoutMs: number;
  mix: LoadMix;
  orders: boolean;
  maxRequests: number;
  minConcurrency: number;
  seed?: number;
  headers: Record<string, string>;
  json?: string;
  junit?: string;
  html?: string;
  replayDir: string;
}

/** 1,2,4,8 — rising, each 1–1024. */
function concurrencyList(value: string): number[] {
  const list = value.split(',').map((v) => wholeNumber('--concurrency', v.trim(), 1, 1024));
  for (let i = 1; i < list.length; i++) if (list[i] <= list[i - 1]) throw new UsageError(`--concurrency must rise step by step, got '${value}'`);
  return list;
}

/** 1, 2, 4, … up to n, and n itself. */
export function doublingUpTo(n: number): number[] {
  const out: number[] = [];
  for (let c = 1; c < n; c *= 2) out.push(c);
  out.push(n);
  return out;
}

export function parseLoadOptions(argv: string[]): LoadCliOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        load: { type: 'boolean', default: false },
        'seller-url': { type: 'string' },
        'state-map': { type: 'string' },
        'states-url': { type: 'string' },
        concurrency: { type: 'string' },
        'max-concurrency': { type: 'string' },
        'step-seconds': { type: 'string', default: '10' },
        timeout: { type: 'string', default: '5000' },
        mix: { type: 'string' },
        'no-orders': { type: 'boolean', default: false },
        'max-requests': { type: 'string', default: String(DEFAULT_MAX_REQUESTS) },
        'min-concurrency': { type: 'string', default: '1' },
        seed: { type: 'string' },
        header: { type: 'string', multiple: true },
        json: { type: 'string' },
        junit: { type: 'string' },
        html: { type: 'string' },
        'replay-dir': { type: 'string', default: DEFAULT_REPLAY_DIR },
        help: { type: 'boolean', default: false },
      },
    }));
  } catch (error) {
    throw new UsageError(`${(error as Error).message} (with --load; see --load --help)`);
  }
  if (values.help) throw new UsageError('');
  const { sellerUrl, catalogue } = sellerAndCatalogue('--load', values);
  if (values.concurrency !== undefined && values['max-concurrency'] !== undefined) throw new UsageError('give --concurrency or --max-concurrency, not both');
  const headers = headerArgs('--header', values.header);
  let mix = DEFAULT_MIX;
  if (values.mix !== undefined) {
    try {
      mix = parseMix(values.mix);
    } catch (error) {
      throw new UsageError(`--mix: ${(error as Error).message}`);
    }
  }
  const orders = !values['no-orders'];
  if (!orders && Object.entries(mix).every(([op, w]) => op === 'place-order' || w === 0)) throw new UsageError('--no-orders leaves nothing in --mix to send');
  const concurrencies =
    values.concurrency !== undefined
      ? concurrencyList(values.concurrency)
      : values['max-concurrency'] !== undefined
        ? doublingUpTo(wholeNumber('--max-concurrency', values['max-concurrency'], 1, 1024))
        : DEFAULT_CONCURRENCIES;
  return {
    sellerUrl,
    catalogue,
    concurrencies,
    stepSeconds: parseDuration('--step-seconds', values['step-seconds']!) / 1000,
    timeoutMs: wholeNumber('--timeout', values.timeout!, 1, 600_000),
    mix,
    orders,
    maxRequests: wholeNumber('--max-requests', values['max-requests']!, 1, 10_000_000),
    minConcurrency: wholeNumber('--min-concurrency', values['min-concurrency']!, 0, 1024),
    ...(values.seed !== undefined ? { seed: wholeNumber('--seed', values.seed, 0, 2 ** 31 - 1) } : {}),
    headers,
    ...(values.json !== undefined ? { json: values.json } : {}),
    ...(values.junit !== undefined ? { junit: values.junit } : {}),
    ...(values.html !== undefined ? { html: reportFileArg('--html', values.html) } : {}),
    replayDir: values['replay-dir']!,
  };
}
