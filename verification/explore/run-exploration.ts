import fc from 'fast-check';
import type { ForwardedOperation } from '../../contracts/reply-check';
import type { Catalogue } from './catalogue';
import { curlCommand } from '../../shared/curl-command';
import { exchange, requestBody, type ExchangeOutcome, type Finding, type SellerTarget } from './exchange';
import { exploreCase, type ExploreCase } from './generators';
import { ANSWER_RULE, type ExploreRule } from './rule-coverage';
import { shrinkFailure } from './shrink';
import { ALONE_TRIES, reproducesAlone } from './alone';

// The exploration: `runs` requests generated from the seed (the same seed, the same requests,
// whatever the concurrency), sent `concurrency` at a time, every reply judged; then the first
// failure of each operation × rule shrunk and given a curl command.

/** `stopped` when --time-limit ended the sending (a planned end, unlike a signal). */
export const TIME_LIMIT = 'time limit';

export interface ExploreOptions {
  target: SellerTarget;
  catalogue: Catalogue;
  runs: number;
  seed: number;
  concurrency: number;
  /** Stop sending new requests after this long (shrinking still happens). */
  timeLimitMs?: number;
  operations?: readonly ForwardedOperation[];
  /** Lone re-sends of a failure before it is called "only under concurrency" (default 3). */
  aloneTries?: number;
  /** Exchanges each shrink may spend. */
  shrinkBudget?: number;
  signal?: AbortSignal;
  onProgress?: (progress: ExploreProgress) => void;
  /** Before each failure is shrunk (shrinking sends requests too, so the terminal says so). */
  onShrink?: (operation: ForwardedOperation, rule: ExploreRule, index: number) => void;
}

export interface ExploreProgress {
  done: number;
  total: number;
  /** Exchanges with at least one broken rule so far. */
  failing: number;
  elapsedMs: number;
}

export interface Tally {
  exercised: number;
  broken: number;
}

export interface ExploreFailure {
  operation: ForwardedOperation;
  rule: ExploreRule;
  /** 0-based index of the first run that broke it (fast-check's path). */
  index: number;
  /** How many exchanges broke it. */
  count: number;
  original: ExploreCase;
  shrunk: ExploreCase;
  finding: Finding;
  shrinkTries: number;
  curl: string;
  /**
   * Re-sent alone before shrinking: 'only-under-concurrency' when every lone try was correct —
   * then it is not shrunk (alone it passes) and `companions` holds the requests in flight
   * beside it; absent at concurrency 1 or when stopped.
   */
  reproduces?: 'alone' | 'only-under-concurrency';
  companions?: ExploreCase[];
  /** The command that replays it with its companions (set by the command that writes the file). */
  replay?: string;
}

export interface ExploreResult {
  sellerUrl: string;
  catalogue: string;
  seed: number;
  planned: number;
  done: number;
  concurrency: number;
  elapsedMs: number;
  /** Drawing the requests with fast-check, before the first is sent. */
  generateMs: number;
  /** Summed over exchanges: waiting for the seller vs our own checking. */
  waitMs: number;
  checkMs: number;
  tally: Record<string, Record<string, Tally>>;
  /** Exchanges that broke a reply rule or the schema, and exchanges not answered (reply.answer): each counted once. */
  broke?: { rules: number; unanswered: number };
  failures: ExploreFailure[];
  /** Why it ended early: 'time limit' or the signal's name. */
  stopped?: string;
}

/**
 * The requests of a run. Sampling the property itself draws exactly what fc.check draws for
 * the same seed, so a failing run's index is the `path` shrinking replays.
 */
export function generatedCases(arbitrary: fc.Arbitrary<ExploreCase>, seed: number, runs: number): ExploreCase[] {
  return fc
    .sample(
      fc.asyncProperty(arbitrary, async () => true),
      { seed, numRuns: runs },
    )
    .map((args) => (args as [ExploreCase])[0]);
}

/** The first (lowest-index) exchange that broke each operation × rule, and the requests beside it. */
interface FirstBreak {
  operation: ForwardedOperation;
  rule: ExploreRule;
  index: number;
  count: number;
  finding: Finding;
  companions: ExploreCase[];
}

/** What sending every generated request found. */
interface Sent {
  done: number;
  elapsedMs: number;
  waitMs: number;
  checkMs: number;
  tally: Record<string, Record<string, Tally>>;
  first: Map<string, FirstBreak>;
  broke: { rules: number; unanswered: number };
  stopped?: string;
}

/** Requests in flight and just finished: what was beside a failure, should it fail only beside them. */
function flightLog(concurrency: number) {
  type Flight = { c: ExploreCase; start: number; end: number };
  const inFlight = new Set<Flight>();
  const recent: Flight[] = [];
  return {
    take(c: ExploreCase): Flight {
      const flight = { c, start: performance.now(), end: Infinity };
      inFlight.add(flight);
      return flight;
    },
    land(flight: Flight): void {
      flight.end = performance.now();
      inFlight.delete(flight);
      recent.push(flight);
      if (recent.length > 4 * concurrency) recent.shift();
    },
    companionsOf: (flight: Flight) =>
      [...inFlight, ...recent.filter((r) => r !== flight && r.end > flight.start)].slice(0, 64).map((r) => r.c),
  };
}

/** Counts an exchange's rules in the tally and keeps the first break of each; whether anything broke. */
function tallyOutcome(
  sent: Sent,
  c: ExploreCase,
  index: number,
  outcome: ExchangeOutcome,
  companions: () => ExploreCase[],
): Set<ExploreRule> {
  const rules = (sent.tally[c.operation] ??= {});
  for (const rule of outcome.exercised) (rules[rule] ??= { exercised: 0, broken: 0 }).exercised++;
  const brokenHere = new Set<ExploreRule>();
  for (const f of outcome.findings) {
    if (brokenHere.has(f.rule)) continue;
    brokenHere.add(f.rule);
    rules[f.rule].broken++;
    const key = `${c.operation} ${f.rule}`;
    const seen = sent.first.get(key);
    // The lowest index wins, so the shrunk failure does not depend on the concurrency.
    if (seen === undefined)
      sent.first.set(key, {
        operation: c.operation,
        rule: f.rule,
        index,
        count: 1,
        finding: f,
        companions: companions(),
      });
    else {
      seen.count++;
      if (index < seen.index) Object.assign(seen, { index, finding: f, companions: companions() });
    }
  }
  return brokenHere;
}

/** Sends the cases `concurrency` at a time until done, stopped or out of time. */
async function sendAll(options: ExploreOptions, cases: ExploreCase[]): Promise<Sent> {
  const sent: Sent = {
    done: 0,
    elapsedMs: 0,
    waitMs: 0,
    checkMs: 0,
    tally: {},
    first: new Map(),
    broke: { rules: 0, unanswered: 0 },
  };
  const flights = flightLog(options.concurrency);
  const started = performance.now();
  let next = 0;
  let failing = 0;
  const worker = async () => {
    while (next < cases.length) {
      if (options.signal?.aborted) {
        sent.stopped ??= String(options.signal.reason ?? 'stopped');
        return;
      }
      if (options.timeLimitMs !== undefined && performance.now() - started > options.timeLimitMs) {
        sent.stopped ??= TIME_LIMIT;
        return;
      }
      const index = next++;
      const c = cases[index];
      const flight = flights.take(c);
      const outcome = await exchange(options.target, c, options.signal);
      flights.land(flight);
      if (options.signal?.aborted) continue; // an exchange cut short by the stop is not a finding
      sent.waitMs += outcome.waitMs;
      sent.checkMs += outcome.checkMs;
      const broken = tallyOutcome(sent, c, index, outcome, () => flights.companionsOf(flight));
      if (broken.size > 0) failing++;
      if (broken.has(ANSWER_RULE)) sent.broke.unanswered++;
      if ([...broken].some((r) => r !== ANSWER_RULE)) sent.broke.rules++;
      sent.done++;
      options.onProgress?.({ done: sent.done, total: cases.length, failing, elapsedMs: performance.now() - started });
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, worker));
  sent.elapsedMs = performance.now() - started;
  return sent;
}

/** A first break sent alone (does it fail alone too?), then shrunk with a curl command, or reported as first sent. */
async function settleFailure(
  options: ExploreOptions,
  arbitrary: fc.Arbitrary<ExploreCase>,
  original: ExploreCase,
  first: FirstBreak,
): Promise<ExploreFailure> {
  const { companions, ...f } = first;
  // Sent alone first: a failure seen only under concurrency is not shrunk (alone it passes) nor given a lone curl.
  const alone =
    options.concurrency > 1 && !options.signal?.aborted
      ? await reproducesAlone(options.target, original, f.rule, options.aloneTries ?? ALONE_TRIES, options.signal)
      : undefined;
  // Reported as first sent, not shrunk: when it shows only under concurrency, or when the run was stopped.
  const unshrunk = {
    ...f,
    original,
    shrunk: original,
    shrinkTries: 0,
    curl: curlCommand(options.target.sellerUrl, requestBody(original), options.target.headers),
  };
  if (alone === false) return { ...unshrunk, reproduces: 'only-under-concurrency', companions };
  if (options.signal?.aborted) return unshrunk;
  options.onShrink?.(f.operation, f.rule, f.index);
  const shrunk = await shrinkFailure({
    target: options.target,
    arbitrary,
    seed: options.seed,
    index: f.index,
    rule: f.rule,
    original,
    finding: f.finding,
    budget: options.shrinkBudget,
    signal: options.signal,
  });
  return {
    operation: f.operation,
    rule: f.rule,
    index: f.index,
    count: f.count,
    original,
    shrunk: shrunk.request,
    finding: shrunk.finding,
    shrinkTries: shrunk.tries,
    curl: curlCommand(options.target.sellerUrl, requestBody(shrunk.request), options.target.headers),
    ...(alone === true ? { reproduces: 'alone' as const } : {}),
  };
}

export async function runExploration(options: ExploreOptions): Promise<ExploreResult> {
  const arbitrary = exploreCase(options.catalogue, options.operations);
  const generating = performance.now();
  const cases = generatedCases(arbitrary, options.seed, options.runs);
  const generateMs = performance.now() - generating;
  const sent = await sendAll(options, cases);
  const failures: ExploreFailure[] = [];
  for (const first of [...sent.first.values()].sort((a, b) => a.index - b.index))
    failures.push(await settleFailure(options, arbitrary, cases[first.index], first));
  // Stopped while shrinking: the failures keep the smallest request found so far.
  const stopped = sent.stopped ?? (options.signal?.aborted ? String(options.signal.reason ?? 'stopped') : undefined);
  return {
    sellerUrl: options.target.sellerUrl,
    catalogue: options.catalogue.origin,
    seed: options.seed,
    planned: cases.length,
    done: sent.done,
    concurrency: options.concurrency,
    elapsedMs: sent.elapsedMs,
    generateMs,
    waitMs: sent.waitMs,
    checkMs: sent.checkMs,
    tally: sent.tally,
    broke: sent.broke,
    failures,
    ...(stopped !== undefined ? { stopped } : {}),
  };
}
