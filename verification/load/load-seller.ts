import { KitInputError } from '../kit-errors';
import { numberOption, wholeNumberOption } from '../option-checks';
import { ensureSellerReachable, sellerTargetOf } from '../seller-options';
import { catalogueReader, type CatalogueOptions } from '../explore/catalogue-option';
import type { Catalogue } from '../explore/catalogue';
import { ensureSellerHasParts } from '../explore/preflight';
import { DEFAULT_MIX, type LoadMix } from './load-mix';
import type { LoadModel, LoadReport, LoadStep, Slo } from './load-report';
import { parseSlos, SloSyntaxError } from './slo';
import { DEFAULT_CONCURRENCIES, DEFAULT_MAX_IN_FLIGHT, defaultMaxRequests, MAX_RATE } from './load-budget';
import { feedableMix, runLoad, type PendingFailure } from './run-load';
import { writeReplayFile } from './replay-file';

// loadSeller: `verify --load` as a function. The seller under the gateway's load, every reply
// checked, the knee and the SLOs judged; returns the load report the command prints. Steps:
// check the options, probe the seller, read the catalogue, check it feeds the mix, run the
// ramp, write replay files when asked. Never prints, never exits.

/** The gateway's own deadline for a member's reply (a member's default timeout_ms). */
export const DEFAULT_LOAD_TIMEOUT_MS = 5000;
const DEFAULT_STEP_SECONDS = 10;

export interface LoadSellerOptions extends CatalogueOptions {
  /** Your seller system's endpoint: every request is POSTed here. */
  sellerUrl: string;
  /** Closed model: the steps, requests in flight at once, rising (default 1, 2, 4, … 64). */
  concurrency?: readonly number[];
  /** Or the open model: arrival rates in requests/s, rising. */
  rate?: readonly number[];
  /** Open model: requests waiting at once before the next is dropped (default 64). */
  maxInFlight?: number;
  /** How long each step runs, seconds (default 10). */
  stepSeconds?: number;
  /** The gateway's deadline for your replies, ms (default 5000). */
  timeoutMs?: number;
  /** Operation weights, e.g. { 'item-inquiry': 70, invoice: 10 } (default 70/10/10/10 with orders). */
  mix?: LoadMix;
  /** true: place real orders on your system as part of the mix. Default false, as the CLI's --orders. */
  orders?: boolean;
  /** The most requests the run may send (default: sized from the steps so every step runs whole). */
  maxRequests?: number;
  /** End the run after this long, ms: the step under way is cut, the rest do not run. */
  timeLimitMs?: number;
  /**
   * Fail when the knee is below this concurrency (closed) or rate (open). Default: no gate, and
   * the verdict names none (a run whose first step did not hold, or was not measured whole, still fails).
   */
  minLevel?: number;
  /** Thresholds checked at every step and for the run, e.g. ['p95<300ms', 'errors<0.1%']. */
  slos?: readonly string[];
  /** Stop at the first step that breaches an SLO. */
  abortOnFail?: boolean;
  /** The generator's seed (default: random, in the report). */
  seed?: number;
  /** Added to every request to your system. */
  headers?: Record<string, string>;
  /** Where replay files of failures seen only under concurrency are written (none are written without it). */
  replayDir?: string;
  /** Stops the run within a second: the partial report says so (`stopped`). */
  signal?: AbortSignal;
  onProgress?: (event: LoadSellerProgress) => void;
}

/** What a load run tells as it goes. */
export type LoadSellerProgress =
  /** Before the first request: what will be sent, and the bound on it. */
  | {
      kind: 'started';
      sellerUrl: string;
      model: LoadModel;
      levels: number[];
      maxInFlight: number;
      stepSeconds: number;
      timeoutMs: number;
      maxRequests: number;
      maxRequestsSource: LoadReport['max_requests_source'];
      timeLimitMs?: number;
      /** Whether place order is in the mix this catalogue feeds (fresh PO numbers). */
      placesOrders: boolean;
      seed: number;
      slos: Slo[];
      abortOnFail: boolean;
    }
  /** A step ended. */
  | { kind: 'step'; step: LoadStep };

function levelsOf(options: LoadSellerOptions): { model: LoadModel; levels: number[] } {
  if (options.concurrency !== undefined && options.rate !== undefined)
    throw new KitInputError('concurrency', 'give concurrency (closed model) or rate (open model), not both');
  const [model, option, given, max] =
    options.rate !== undefined
      ? (['open', 'rate', options.rate, MAX_RATE] as const)
      : (['closed', 'concurrency', options.concurrency ?? DEFAULT_CONCURRENCIES, 1024] as const);
  const levels = [...given].map((level) => wholeNumberOption(option, level, 1, max, 0));
  if (levels.length === 0) throw new KitInputError(option, 'needs at least one step');
  if (levels.some((level, i) => i > 0 && level <= levels[i - 1]))
    throw new KitInputError(option, `must rise step by step, got ${levels.join(',')}`);
  return { model, levels };
}

function slosOf(options: LoadSellerOptions, model: LoadModel): Slo[] {
  let slos: Slo[];
  try {
    slos = (options.slos ?? []).flatMap(parseSlos);
  } catch (error) {
    if (!(error instanceof SloSyntaxError)) throw error;
    throw new KitInputError('slos', error.message);
  }
  const dropped = slos.find((s) => s.metric === 'dropped');
  if (model === 'closed' && dropped !== undefined)
    throw new KitInputError(
      'slos',
      `${dropped.expression}: nothing is dropped in the closed model (dropped belongs to rate)`,
    );
  if (options.abortOnFail === true && slos.length === 0)
    throw new KitInputError('abortOnFail', 'needs an SLO to abort on');
  return slos;
}

function checkOptions(options: LoadSellerOptions) {
  const { model, levels } = levelsOf(options);
  if (model === 'closed' && options.maxInFlight !== undefined)
    throw new KitInputError('maxInFlight', 'belongs to the open model: give rate');
  const stepSeconds = numberOption('stepSeconds', options.stepSeconds, 0.001, 86_400, DEFAULT_STEP_SECONDS);
  const orders = options.orders === true;
  const mix = options.mix ?? DEFAULT_MIX;
  if (!orders && Object.entries(mix).every(([op, w]) => op === 'place-order' || w === 0))
    throw new KitInputError('orders', 'not true: the mix has only place-order, which needs orders: true');
  return {
    target: sellerTargetOf(options, DEFAULT_LOAD_TIMEOUT_MS),
    catalogue: catalogueReader(options),
    model,
    levels,
    maxInFlight: wholeNumberOption('maxInFlight', options.maxInFlight, 1, 4096, DEFAULT_MAX_IN_FLIGHT),
    stepSeconds,
    mix,
    orders,
    ...(options.maxRequests !== undefined
      ? {
          maxRequests: wholeNumberOption('maxRequests', options.maxRequests, 1, 100_000_000, 0),
          maxRequestsSource: 'given' as const,
        }
      : {
          maxRequests: defaultMaxRequests(model, levels, stepSeconds),
          maxRequestsSource: 'sized from the steps' as const,
        }),
    ...(options.timeLimitMs !== undefined
      ? { timeLimitMs: numberOption('timeLimitMs', options.timeLimitMs, 1, Number.MAX_SAFE_INTEGER, 0) }
      : {}),
    minLevel: wholeNumberOption('minLevel', options.minLevel, 0, model === 'open' ? MAX_RATE : 1024, 0),
    minLevelGiven: options.minLevel !== undefined,
    slos: slosOf(options, model),
    abortOnFail: options.abortOnFail === true,
    seed: wholeNumberOption('seed', options.seed, 0, 2 ** 31 - 1, Math.floor(Math.random() * 2 ** 31)),
  };
}
type Checked = ReturnType<typeof checkOptions>;

/** The mix this catalogue can feed, or a KitInputError naming the catalogue's option. */
function fedMix(checked: Checked, catalogue: Catalogue): LoadMix {
  const mix = feedableMix(checked.mix, catalogue, checked.orders);
  if (Object.keys(mix).length === 0)
    throw new KitInputError(
      checked.catalogue.option,
      `${catalogue.origin} cannot feed any operation of the mix (documents need an account, orders an order location)`,
    );
  return mix;
}

/** Replay files for failures seen only under concurrency; the report then carries requests, not generated cases. */
async function settleFailures(
  failures: PendingFailure[],
  checked: Checked,
  replayDir: string | undefined,
): Promise<void> {
  let n = 0;
  if (replayDir !== undefined)
    for (const f of failures.filter((x) => x.reproduces === 'only-under-concurrency'))
      f.replay = await writeReplayFile(replayDir, ++n, {
        kind: 'replay',
        seller_url: checked.target.sellerUrl,
        headers: checked.target.headers,
        timeout_ms: checked.target.timeoutMs,
        rule: f.rule,
        failing: f.case,
        companions: f.companionCases,
      });
  for (const f of failures) {
    delete (f as Partial<PendingFailure>).case;
    delete (f as Partial<PendingFailure>).companionCases;
  }
}

/**
 * Runs your seller system under the gateway's load, as `verify --load` does, and returns the
 * load report `verify --load --json` writes (`verdict.ok`, the knee, every step).
 *
 * @throws KitInputError naming the option at fault (a catalogue that is
 * unreadable, names parts your system lacks, or cannot feed the mix).
 * @throws SellerUnreachableError when nothing listens at `sellerUrl` at start.
 */
import { finishRun, startRun } from '../reports/run-identity';

export async function loadSeller(options: LoadSellerOptions): Promise<LoadReport> {
  const checked = checkOptions(options);
  const { target, model } = checked;
  const tell = options.onProgress ?? (() => {});
  const start = startRun(target.sellerUrl, 'none');
  await ensureSellerReachable(target.sellerUrl);
  const catalogue = await checked.catalogue.read(target.headers);
  await ensureSellerHasParts(target, catalogue, checked.catalogue.option);
  const mix = fedMix(checked, catalogue);
  tell({
    kind: 'started',
    sellerUrl: target.sellerUrl,
    model,
    levels: checked.levels,
    maxInFlight: checked.maxInFlight,
    stepSeconds: checked.stepSeconds,
    timeoutMs: target.timeoutMs,
    maxRequests: checked.maxRequests,
    maxRequestsSource: checked.maxRequestsSource,
    ...(checked.timeLimitMs !== undefined ? { timeLimitMs: checked.timeLimitMs } : {}),
    placesOrders: mix['place-order'] !== undefined,
    seed: checked.seed,
    slos: checked.slos,
    abortOnFail: checked.abortOnFail,
  });
  const { report, failures } = await runLoad({
    target: { sellerUrl: target.sellerUrl, headers: target.headers, timeoutMs: target.timeoutMs },
    catalogue,
    seed: checked.seed,
    mix: checked.mix,
    orders: checked.orders,
    model,
    levels: checked.levels,
    maxInFlight: checked.maxInFlight,
    stepSeconds: checked.stepSeconds,
    maxRequests: checked.maxRequests,
    maxRequestsSource: checked.maxRequestsSource,
    ...(checked.timeLimitMs !== undefined ? { timeLimitMs: checked.timeLimitMs } : {}),
    minLevel: checked.minLevel,
    minLevelGiven: checked.minLevelGiven,
    slos: checked.slos,
    abortOnFail: checked.abortOnFail,
    ...(options.signal !== undefined ? { signal: options.signal } : {}),
    onStep: (step) => tell({ kind: 'step', step }),
  });
  await settleFailures(failures, checked, options.replayDir);
  return { ...report, run: finishRun(start) };
}
