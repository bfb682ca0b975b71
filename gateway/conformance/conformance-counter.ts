import type { Clock } from '../clock';
import type { Store } from '../store/store';
import type { ConformanceRule } from './conformance-rules';
import { ConformanceTally } from './conformance-tally';
import { addCounts, addSamples, foldOldBuckets } from './conformance-writes';
import type { ReplyJudgement } from './reply-judgement';

// Production conformance, counted in the gateway's one pass over each reply: per member ×
// operation and minute, the replies judged and those that broke a rule (any, and each one),
// plus the newest few exchanges that broke each rule. Counts stay in memory (a few map look-ups
// a reply) and are added to the store every flush (default 10 s) and at stop, with additive
// upserts, so several instances add up. A flush that fails keeps its counts for the next one.

export { MINUTE_MS } from './conformance-tally';

/** How many exchanges each member × rule keeps (the newest). */
export const SAMPLES_PER_RULE = 20;
/** Minute buckets older than this are folded into their hour (the rolling week stays exact). */
export const MINUTE_BUCKETS_KEPT_MS = 8 * 24 * 60 * 60_000;
const FOLD_EVERY_MS = 60 * 60_000;

export interface ConformanceCounter {
  /** One judged reply and the rules it broke (reply-judgement.ts brokenRules). */
  count(judgement: ReplyJudgement, broken: readonly ConformanceRule[]): void;
  /** Adds what was counted since the last flush to the store. */
  flush(): Promise<void>;
  /** Flushes every `intervalMs` until stop(). */
  start(intervalMs?: number): void;
  /** Stops the timer and flushes what is left (a graceful stop loses nothing). */
  stop(): Promise<void>;
}

export interface ConformanceCounterOptions {
  store: Store;
  clock?: Clock;
  samplesPerRule?: number;
  /** Told when a timed flush fails (the counts are kept for the next); default stderr. */
  log?: (line: string) => void;
}

export function createConformanceCounter(options: ConformanceCounterOptions): ConformanceCounter {
  const { store } = options;
  const clock = options.clock ?? Date.now;
  const keep = options.samplesPerRule ?? SAMPLES_PER_RULE;
  const log = options.log ?? ((line: string) => console.error(line));
  let tally = new ConformanceTally(keep);
  let chain: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  let lastFold = 0;

  async function flushOnce(): Promise<void> {
    const taken = tally;
    tally = new ConformanceTally(keep);
    if (!taken.empty) {
      try {
        await store.transaction(async (tx) => {
          await addCounts(tx, taken.rows());
          await addSamples(tx, taken.sampled(), keep);
        });
      } catch (error) {
        tally.merge(taken);
        throw error;
      }
    }
    const now = clock();
    if (now - lastFold >= FOLD_EVERY_MS) {
      lastFold = now;
      await foldOldBuckets(store, new Date(now - MINUTE_BUCKETS_KEPT_MS));
    }
  }

  function flush(): Promise<void> {
    // One flush at a time; one asked for during another runs after it (it may hold newer counts).
    const next = chain.catch(() => undefined).then(flushOnce);
    chain = next;
    return next;
  }

  return {
    count: (judgement, broken) => tally.count(judgement, broken, clock()),
    flush,
    start(intervalMs = 10_000) {
      if (timer !== undefined) return;
      timer = setInterval(() => {
        flush().catch((error: unknown) =>
          log(`conformance: counts not written yet (kept for the next flush): ${(error as Error).message}`),
        );
      }, intervalMs);
      timer.unref();
    },
    async stop() {
      if (timer !== undefined) clearInterval(timer);
      timer = undefined;
      await flush();
    },
  };
}
