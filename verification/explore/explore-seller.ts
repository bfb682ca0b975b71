import type { ForwardedOperation } from '../../contracts/reply-check';
import { numberOption, wholeNumberOption } from '../option-checks';
import { ensureSellerReachable, sellerTargetOf } from '../seller-options';
import { writeReplayFile } from '../load/replay-file';
import { catalogueReader, type CatalogueOptions } from './catalogue-option';
import { conformanceReport, type ConformanceReport } from './conformance';
import { startRun } from '../reports/run-identity';
import type { SellerTarget } from './exchange';
import { ensureSellerHasParts } from './preflight';
import type { ExploreRule } from './rule-coverage';
import { runExploration, type ExploreFailure, type ExploreProgress } from './run-exploration';

// exploreSeller: `verify --explore` as a function. Generated exchanges on the vendor's
// catalogue, every reply rule checked, failures shrunk; returns the conformance report the
// command prints. Steps: check the options, probe the seller, read the catalogue, check the
// seller has its parts, explore, write replay files when asked. Never prints, never exits.

export interface ExploreSellerOptions extends CatalogueOptions {
  /** Your seller system's endpoint: every request is POSTed here. */
  sellerUrl: string;
  /** How many requests to generate (default 200). */
  runs?: number;
  /** The generator's seed (default: random, in the report); the same seed sends the same requests. */
  seed?: number;
  /** Stop sending new requests after this long, ms (the report's `stopped` is 'time limit'). */
  timeLimitMs?: number;
  /** Requests in flight at once (default 4). */
  concurrency?: number;
  /** The share of exchanges that must be answered at all, 0–1 (default 1); a broken rule fails whatever the score. */
  minScore?: number;
  /** Added to every request to your system. */
  headers?: Record<string, string>;
  /** How long your system may take per exchange (default 30000 ms). */
  timeoutMs?: number;
  /** The largest reply read from your system (default 8 MiB). */
  maxReplyBytes?: number;
  /** Where replay files of failures seen only under concurrency are written (none are written without it). */
  replayDir?: string;
  /**
   * Stops the run: the report says so (`stopped`: the signal's reason). Stopped
   * before the catalogue was read, it rejects with the signal's reason.
   */
  signal?: AbortSignal;
  onProgress?: (event: ExploreSellerProgress) => void;
}

/** What an exploration tells as it goes. */
export type ExploreSellerProgress =
  | { kind: 'started'; sellerUrl: string; runs: number; catalogue: string; seed: number; concurrency: number }
  /** After every exchange. */
  | ({ kind: 'progress' } & ExploreProgress)
  /** Before a failure is shrunk (shrinking sends requests too). */
  | { kind: 'shrinking'; operation: ForwardedOperation; rule: ExploreRule; index: number };

export const DEFAULT_EXPLORE_RUNS = 200;
export const DEFAULT_EXPLORE_CONCURRENCY = 4;
const DEFAULT_TIMEOUT_MS = 30_000;

function checkOptions(options: ExploreSellerOptions) {
  return {
    target: sellerTargetOf(options, DEFAULT_TIMEOUT_MS),
    catalogue: catalogueReader(options),
    runs: wholeNumberOption('runs', options.runs, 1, 10_000_000, DEFAULT_EXPLORE_RUNS),
    seed: wholeNumberOption('seed', options.seed, 0, 2 ** 31 - 1, Math.floor(Math.random() * 2 ** 31)),
    concurrency: wholeNumberOption('concurrency', options.concurrency, 1, 256, DEFAULT_EXPLORE_CONCURRENCY),
    minScore: numberOption('minScore', options.minScore, 0, 1, 1),
    ...(options.timeLimitMs !== undefined
      ? { timeLimitMs: numberOption('timeLimitMs', options.timeLimitMs, 1, Number.MAX_SAFE_INTEGER, 0) }
      : {}),
  };
}

/** A failure seen only under concurrency gets a replay file instead of a lone curl that would pass. */
async function writeReplayFiles(dir: string, target: SellerTarget, failures: ExploreFailure[]): Promise<void> {
  let n = 0;
  for (const f of failures.filter((x) => x.reproduces === 'only-under-concurrency'))
    f.replay = await writeReplayFile(dir, ++n, {
      kind: 'replay',
      seller_url: target.sellerUrl,
      headers: target.headers ?? {},
      timeout_ms: target.timeoutMs,
      rule: f.rule,
      failing: f.original,
      companions: f.companions ?? [],
    });
}

/**
 * Explores a seller system with generated exchanges from your catalogue, as `verify --explore`
 * does, and returns the conformance report `verify --explore --json` writes.
 *
 * @throws KitInputError naming the option at fault (e.g. `stateMap`
 * unreadable, or naming parts your system does not have).
 * @throws SellerUnreachableError when nothing listens at `sellerUrl` at start.
 */
export async function exploreSeller(options: ExploreSellerOptions): Promise<ConformanceReport> {
  const checked = checkOptions(options);
  const { target } = checked;
  const { signal } = options;
  const tell = options.onProgress ?? (() => {});
  const start = startRun(target.sellerUrl, 'none');
  await ensureSellerReachable(target.sellerUrl);
  const catalogue = await checked.catalogue.read(target.headers, signal);
  // A stop ends the pre-flight at once; the exploration below then reports the run as stopped.
  await ensureSellerHasParts(target, catalogue, checked.catalogue.option, signal);
  tell({
    kind: 'started',
    sellerUrl: target.sellerUrl,
    runs: checked.runs,
    catalogue: catalogue.origin,
    seed: checked.seed,
    concurrency: checked.concurrency,
  });
  const result = await runExploration({
    target,
    catalogue,
    runs: checked.runs,
    seed: checked.seed,
    concurrency: checked.concurrency,
    ...(checked.timeLimitMs !== undefined ? { timeLimitMs: checked.timeLimitMs } : {}),
    ...(signal !== undefined ? { signal } : {}),
    onProgress: (progress) => tell({ kind: 'progress', ...progress }),
    onShrink: (operation, rule, index) => tell({ kind: 'shrinking', operation, rule, index }),
  });
  if (options.replayDir !== undefined) await writeReplayFiles(options.replayDir, target, result.failures);
  return conformanceReport(result, checked.minScore, start);
}
