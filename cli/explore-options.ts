import { headerArgs, httpUrlArg, strictArgs, usageFailure, UsageError, type Parsed } from './command-line';
import type { CommandIo } from './command-io';
import type { CatalogueSource } from '../verification/explore/catalogue-source';
import { DEFAULT_MAX_REPLY_BYTES, MAX_REPLY_BYTES_CEILING } from '../verification/reply-within-limit';
import { reportFileArg } from './report-file-arg';

// `explore …`: the command line of an exploration, checked before anything starts,
// with a message naming the flag at fault.

export const EXPLORE_USAGE = `Usage: explore --seller-url <url> (--state-map <file> | --states-url <url>) [options]

Generated exchanges instead of the pact's examples: item inquiries, orders, invoice and
statement requests drawn from your own catalogue, every reply checked against the schema and
every reply rule; each failure shrunk to the smallest request still breaking the same rule.

  --seller-url <url>        your seller system's endpoint (every request is POSTed here)
  --state-map <file>        your catalogue: the state map's values and its "explore" section
  --states-url <url>        or: our mock seller's provider-state URL (…/__admin/provider-state);
                            the catalogue is its scenario, read through its admin API
  --runs <n>                how many requests to generate (default 200)
  --seed <n>                the generator's seed (default: random, printed); the same seed sends
                            the same requests
  --time-limit <t>          stop sending new requests after t (e.g. 90s, 5m, 2000ms; default none)
  --concurrency <n>         requests in flight at once (default 4)
  --min-score <s>           the share of exchanges that must be answered at all (HTTP 200 with
                            JSON, in time: reply.answer), 0–1 or a percentage like 99.5%
                            (default 1); a broken reply rule or schema fails whatever the score
  --header <name: value>    add a header to every request to your system; repeatable
  --timeout <ms>            how long your system may take per exchange (default 30000)
  --max-reply-bytes <n>     the largest reply read from your system (default ${DEFAULT_MAX_REPLY_BYTES}, 8 MiB); a
                            larger one is stopped and reported as reply.too-large
  --json <file>             also write the conformance report as JSON
  --junit <file>            also write JUnit XML (one test case per operation × rule)
  --ctrf <file>             also write the same test cases as CTRF JSON (ctrf.io)
  --replay-dir <dir>        where replay files of failures seen only under concurrency go (default verify-replays)
  --html <file>             also write one self-contained HTML page: the operation × rule matrix
                            coloured by score, each failure's shrunk request and curl command
  --help                    this text

Progress on stderr; the failures, the table of operation × rule and the verdict on stdout.
Exit 0: no reply rule broken and answers at or above --min-score; 1: otherwise; 2: bad usage, an unusable
catalogue (e.g. a part your system does not have), or your system cannot be reached at start;
130/143: stopped by SIGINT/SIGTERM (the partial report says how many exchanges ran).
`;

export interface ExploreCliOptions {
  sellerUrl: string;
  catalogue: CatalogueSource;
  runs: number;
  seed?: number;
  timeLimitMs?: number;
  concurrency: number;
  minScore: number;
  headers: Record<string, string>;
  timeoutMs: number;
  maxReplyBytes: number;
  json?: string;
  junit?: string;
  ctrf?: string;
  replayDir?: string;
  html?: string;
}

/** Digits only (no 1e3, no sign), from `min` to `max`: the exploration's and the load mode's counts. */
export function wholeNumber(flag: string, value: string, min: number, max: number): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < min || n > max)
    throw new UsageError(`${flag} must be a whole number, ${min}–${max}, got '${value}'`);
  return n;
}

/** 90s, 5m, 2000ms, or plain seconds. */
export function parseDuration(flag: string, value: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(value.trim());
  if (match === null) throw new UsageError(`${flag} must be a duration such as 90s, 5m or 2000ms, got '${value}'`);
  const n = Number(match[1]);
  const ms = match[2] === 'ms' ? n : match[2] === 'm' ? n * 60_000 : n * 1000;
  if (ms <= 0) throw new UsageError(`${flag} must be above zero, got '${value}'`);
  return ms;
}

export function parseScore(flag: string, value: string): number {
  const percentage = value.endsWith('%');
  const n = Number(percentage ? value.slice(0, -1) : value);
  const score = percentage ? n / 100 : n;
  if (value.trim() === '' || !Number.isFinite(score) || score < 0 || score > 1)
    throw new UsageError(`${flag} must be 0–1 or a percentage such as 99.5%, got '${value}'`);
  return score;
}

/** The seller and the catalogue source, as explore and load both take them. */
export function sellerAndCatalogue(values: { 'seller-url'?: string; 'state-map'?: string; 'states-url'?: string }): {
  sellerUrl: string;
  catalogue: CatalogueSource;
} {
  if (values['seller-url'] === undefined) throw new UsageError('--seller-url is required');
  if (values['state-map'] !== undefined && values['states-url'] !== undefined)
    throw new UsageError('give --state-map or --states-url, not both');
  if (values['state-map'] === undefined && values['states-url'] === undefined)
    throw new UsageError(
      "--state-map or --states-url is required: your catalogue, or our mock seller's provider-state URL",
    );
  return {
    sellerUrl: httpUrlArg('--seller-url', values['seller-url']),
    catalogue:
      values['state-map'] !== undefined
        ? { kind: 'map', file: values['state-map'] }
        : { kind: 'url', url: httpUrlArg('--states-url', values['states-url']!) },
  };
}

export function parseExploreOptions(argv: string[]): ExploreCliOptions {
  const values = strictArgs(argv, {
    'seller-url': { type: 'string' },
    'state-map': { type: 'string' },
    'states-url': { type: 'string' },
    runs: { type: 'string', default: '200' },
    seed: { type: 'string' },
    'time-limit': { type: 'string' },
    concurrency: { type: 'string', default: '4' },
    'min-score': { type: 'string', default: '1' },
    header: { type: 'string', multiple: true },
    timeout: { type: 'string', default: '30000' },
    'max-reply-bytes': { type: 'string', default: String(DEFAULT_MAX_REPLY_BYTES) },
    json: { type: 'string' },
    junit: { type: 'string' },
    ctrf: { type: 'string' },
    'replay-dir': { type: 'string' },
    html: { type: 'string' },
    help: { type: 'boolean', default: false },
  });
  if (values.help) throw new UsageError('');
  const { sellerUrl, catalogue } = sellerAndCatalogue(values);
  const headers = headerArgs('--header', values.header);
  return {
    sellerUrl,
    catalogue,
    runs: wholeNumber('--runs', values.runs, 1, 10_000_000),
    ...(values.seed !== undefined ? { seed: wholeNumber('--seed', values.seed, 0, 2 ** 31 - 1) } : {}),
    ...(values['time-limit'] !== undefined ? { timeLimitMs: parseDuration('--time-limit', values['time-limit']) } : {}),
    concurrency: wholeNumber('--concurrency', values.concurrency, 1, 256),
    minScore: parseScore('--min-score', values['min-score']),
    headers,
    timeoutMs: wholeNumber('--timeout', values.timeout, 1, 3_600_000),
    maxReplyBytes: wholeNumber('--max-reply-bytes', values['max-reply-bytes'], 1, MAX_REPLY_BYTES_CEILING),
    ...(values.json !== undefined ? { json: values.json } : {}),
    ...(values.junit !== undefined ? { junit: values.junit } : {}),
    ...(values.ctrf !== undefined ? { ctrf: values.ctrf } : {}),
    ...(values['replay-dir'] !== undefined ? { replayDir: values['replay-dir'] } : {}),
    ...(values.html !== undefined ? { html: reportFileArg('--html', values.html) } : {}),
  };
}

/** `explore`'s command line once: the options, or the exit code once --help or a usage error was answered. */
export function readExploreCommandLine(argv: string[], io: CommandIo): Parsed<ExploreCliOptions> {
  try {
    return { kind: 'run', options: parseExploreOptions(argv) };
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    if (error.message === '') {
      io.stdout(EXPLORE_USAGE);
      return { kind: 'exit', code: 0 };
    }
    return { kind: 'exit', code: usageFailure('explore', error, io) };
  }
}
