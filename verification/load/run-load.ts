import type { ForwardedOperation } from '../../contracts/reply-check';
import type { Catalogue } from '../explore/catalogue';
import type { SellerTarget } from '../explore/exchange';
import { createLoadClient } from './load-exchange';
import { exploreCase, type ExploreCase } from '../explore/generators';
import { ANSWER_RULE, type ExploreRule } from '../explore/rule-coverage';
import { generatedCases } from '../explore/run-exploration';
import { ALONE_TRIES, reproducesAlone } from '../explore/alone';
import { levelName, type LoadModel, type LoadReport, type LoadStep, type Slo } from './load-report';
import { mixPicker, type LoadMix } from './load-mix';
import { percentiles } from './percentiles';
import { runClosedStep } from './closed-step';
import { runOpenStep } from './open-step';
import type { StepRecorder, PendingFailure } from './step-recorder';
import { timeIsUp, type StepCut, type StepDriver } from './step-driver';
import { coordinatedOmission } from './coordinated-omission';
import { LONE_PROBES, smallWritesHeld, steadyAtAckTimer } from './small-writes';
import { sloHolds, stepFigures } from './slo';
import { loadVerdict } from './load-verdict';
import { DEFAULT_MAX_IN_FLIGHT } from './load-budget';

export type { PendingFailure } from './step-recorder';

// The load run: the explorer's generated requests in the gateway's operation mix, sent at each
// level of the ramp for a fixed time — a number of requests in flight (closed model) or an
// arrival rate (open model) — every reply judged by the schema and the reply rules. Then the
// failures are sent alone (do they fail alone too?), and the verdict is drawn (load-verdict.ts).

export interface LoadOptions {
  /** timeoutMs is the deadline: the gateway's per-member timeout. */
  target: SellerTarget;
  catalogue: Catalogue;
  seed: number;
  mix: LoadMix;
  /** false: no place order at all (a production-like system). */
  orders: boolean;
  /** closed: `levels` are concurrencies; open: arrival rates (requests/s), with at most maxInFlight waiting. */
  model: LoadModel;
  levels: number[];
  maxInFlight?: number;
  stepSeconds: number;
  /** Requests the whole run may send; a step stops early once reached. */
  maxRequests: number;
  /** The run's time limit, ms: the step under way is cut when it passes, the rest do not run. */
  timeLimitMs?: number;
  maxRequestsSource?: LoadReport['max_requests_source'];
  /** --min-concurrency or --min-rate (0: no gate). */
  minLevel: number;
  /** Whether the vendor gave that gate (the verdict names only the flags given). */
  minLevelGiven: boolean;
  slos?: Slo[];
  /** Stop at the first step that breaches an SLO. */
  abortOnFail?: boolean;
  /** Lone re-sends of a failing request before it is called "only under concurrency". */
  aloneTries?: number;
  signal?: AbortSignal;
  onStep?: (step: LoadStep) => void;
}

/** Generated requests per operation; a run cycles through them (orders get fresh PO numbers). */
const POOL = 256;

/** A small seeded PRNG (mulberry32): the mix's draws repeat with the seed. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The operations a catalogue can feed (documents need an account). */
export function feedableMix(mix: LoadMix, catalogue: Catalogue, orders: boolean): LoadMix {
  const out: LoadMix = {};
  for (const [operation, weight] of Object.entries(mix) as [ForwardedOperation, number][]) {
    if (weight <= 0) continue;
    if (operation === 'place-order' && (!orders || catalogue.orderLocations.length === 0)) continue;
    if ((operation === 'invoice' || operation === 'statement') && catalogue.accounts.length === 0) continue;
    out[operation] = weight;
  }
  return out;
}

/** The generated requests in the mix's shares, drawn with the seed; every order a new PO number. */
function caseSource(options: LoadOptions, mix: LoadMix): () => ExploreCase {
  const operations = Object.keys(mix) as ForwardedOperation[];
  if (operations.length === 0) throw new Error('the mix leaves nothing this catalogue can feed');
  const pools = new Map<ForwardedOperation, ExploreCase[]>(
    operations.map((operation, i) => [
      operation,
      generatedCases(exploreCase(options.catalogue, [operation]), options.seed + i, POOL),
    ]),
  );
  const pick = mixPicker(mix);
  const random = prng(options.seed);
  let orderNumber = 0;
  return () => {
    const operation = pick(random());
    const pool = pools.get(operation)!;
    const c = pool[Math.floor(random() * pool.length)];
    if (c.operation !== 'place-order') return c;
    // A repeated PO number is a different question (a duplicate).
    return { ...c, request: { ...c.request, purchase_order_number: `PO-LOAD-${options.seed}-${++orderNumber}` } };
  };
}

/** The figures every step reports, from what its recorder saw. */
function stepFiguresOf(recorder: StepRecorder, seconds: number, deadlineMs: number, cut: StepCut | undefined) {
  const latency_ms = percentiles(recorder.recorded());
  const rule_breaks = recorder.ruleBreaks;
  const figures = {
    seconds: Math.round(seconds * 1000) / 1000,
    exchanges: recorder.exchanges,
    throughput_per_s: seconds === 0 ? 0 : Math.round((recorder.exchanges / seconds) * 10) / 10,
    latency_ms,
    timeouts: recorder.timeouts,
    errors: recorder.errors,
    replies_broken: recorder.repliesBroken,
    rule_breaks,
    first_failures: recorder.firstFailures,
    healthy: recorder.exchanges > 0 && latency_ms.p99 < deadlineMs && recorder.timeouts === 0 && recorder.errors === 0,
    correct: (Object.keys(rule_breaks) as ExploreRule[]).every((r) => r === ANSWER_RULE),
    slo_breaches: [] as string[],
    ...(cut !== undefined ? { partial: true } : {}),
  };
  return figures;
}

async function runStep(
  d: StepDriver,
  options: LoadOptions,
  level: number,
): Promise<{ step: LoadStep; latencies: Float64Array; cut?: StepCut }> {
  const deadline = options.target.timeoutMs;
  const slos = options.slos ?? [];
  let step: LoadStep;
  let recorder: StepRecorder;
  let cut: StepCut | undefined;
  switch (options.model) {
    case 'closed': {
      const r = await runClosedStep(d, level, options.stepSeconds);
      ({ recorder, cut } = r);
      const figures = stepFiguresOf(recorder, r.seconds, deadline, cut);
      const omission = coordinatedOmission(
        recorder.recorded(),
        figures.latency_ms.p50,
        figures.latency_ms.p99,
        figures.latency_ms.max,
        deadline,
      );
      step = {
        model: 'closed',
        concurrency: level,
        ...figures,
        ...(omission !== undefined ? { coordinated_omission: omission } : {}),
      };
      break;
    }
    case 'open': {
      const r = await runOpenStep(d, level, options.stepSeconds, options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT);
      ({ recorder, cut } = r);
      const figures = stepFiguresOf(recorder, r.seconds, deadline, cut);
      const sentPerS = r.sendSpanMs === 0 ? 0 : Math.round((r.sent / (r.sendSpanMs / 1000)) * 10) / 10;
      const lag = percentiles(r.lags);
      const kept = r.dropped === 0 && sentPerS >= 0.95 * level;
      step = {
        model: 'open',
        rate: level,
        ...figures,
        healthy: figures.healthy && kept,
        sent_per_s: sentPerS,
        dropped: r.dropped,
        peak_in_flight: r.peakInFlight,
        send_lag_ms: { p99: lag.p99, max: lag.max },
        schedule_kept: kept,
      };
      break;
    }
  }
  step.slo_breaches = slos.filter((slo) => !sloHolds(slo, stepFigures(step))).map((slo) => slo.expression);
  return { step, latencies: recorder.recorded(), ...(cut !== undefined ? { cut } : {}) };
}

export interface LoadResult {
  report: LoadReport;
  /** The failures behind the report's first_failures, with their requests as generated. */
  failures: PendingFailure[];
}

interface Ramp {
  steps: LoadStep[];
  /** Each step's latencies, as recorded. */
  latencies: Float64Array[];
  /** Why the ramp stopped before its last step ended (a sentence), if it did. */
  cutShort?: string;
  /** What cut a step under way: 'the time limit (--time-limit 2s)', 'the request budget (--max-requests 8)'. */
  cutBy?: string;
}

/** The steps in turn, until one is cut short or --abort-on-fail stops at a breached SLO. */
async function runRamp(driver: StepDriver, options: LoadOptions): Promise<Ramp> {
  const { model } = options;
  const limit = `the time limit (--time-limit ${(options.timeLimitMs ?? 0) / 1000}s)`;
  const budget = `the request budget (--max-requests ${options.maxRequests})`;
  const ramp: Ramp = { steps: [], latencies: [] };
  for (const level of options.levels) {
    if (driver.signal?.aborted === true) return ramp;
    if (driver.budget.sent >= driver.budget.max) return { ...ramp, cutShort: ramp.cutShort ?? `${budget} was spent` };
    if (timeIsUp(driver)) return { ...ramp, cutShort: ramp.cutShort ?? `${limit} was reached` };
    const { step, latencies, cut } = await runStep(driver, options, level);
    ramp.steps.push(step);
    ramp.latencies.push(latencies);
    options.onStep?.(step);
    if (cut === 'budget')
      Object.assign(ramp, { cutShort: `${budget} was spent during ${levelName(model, level)}`, cutBy: budget });
    if (cut === 'time-limit')
      Object.assign(ramp, { cutShort: `${limit} was reached during ${levelName(model, level)}`, cutBy: limit });
    if (options.abortOnFail === true && step.slo_breaches.length > 0 && level !== options.levels.at(-1))
      return {
        ...ramp,
        cutShort: `--abort-on-fail: ${step.slo_breaches.join(', ')} breached at ${levelName(model, level)}`,
      };
  }
  return ramp;
}

/** Each first failure sent alone a few times: one that never breaks alone shows only under concurrency. */
async function sendFailuresAlone(options: LoadOptions, failures: PendingFailure[]): Promise<void> {
  for (const failure of failures) {
    if (failure.rule === ANSWER_RULE) continue; // timeouts and errors: load itself, not a reply to judge
    const alone = await reproducesAlone(
      options.target,
      failure.case,
      failure.rule,
      options.aloneTries ?? ALONE_TRIES,
      options.signal,
    );
    if (alone === undefined) return; // stopped
    failure.reproduces = alone ? 'alone' : 'only-under-concurrency';
    if (!alone) failure.companions = failure.companionCases.map((c) => c.request);
  }
}

/**
 * A first step at concurrency 1 steady in the delayed-ACK band: a few exchanges alone, each on a
 * fresh connection, tell a TCP stack holding small writes (small-writes.ts). Sent after the run,
 * as the failures are re-sent alone, and only for such a step: a seller not near 40 ms gets none.
 */
async function probeSmallWrites(driver: StepDriver, first: LoadStep | undefined, latencies: Float64Array | undefined) {
  if (first?.model !== 'closed' || first.concurrency !== 1 || latencies === undefined) return;
  if (steadyAtAckTimer(latencies) === undefined) return;
  let lone: number | undefined;
  for (let i = 0; i < LONE_PROBES; i++) {
    const client = createLoadClient(driver.target, 1);
    const outcome = await client.exchange(driver.nextCase());
    await client.close();
    if (outcome.httpStatus !== null && !outcome.timedOut) lone = Math.min(lone ?? Infinity, outcome.waitMs);
  }
  const held = smallWritesHeld(latencies, lone);
  if (held !== undefined) first.small_writes_held = held;
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const { target, catalogue, seed, signal, model } = options;
  const mix = feedableMix(options.mix, catalogue, options.orders);
  const maxInFlight = options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT;
  const client = createLoadClient(target, model === 'closed' ? Math.max(...options.levels) : maxInFlight);
  // The stop aborts every exchange in flight at once: the partial report follows within a second.
  const stop = () => void client.close();
  signal?.addEventListener('abort', stop, { once: true });
  const driver: StepDriver = {
    target,
    client,
    nextCase: caseSource(options, mix),
    budget: { sent: 0, max: options.maxRequests },
    failures: [],
    ...(options.timeLimitMs !== undefined ? { deadline: performance.now() + options.timeLimitMs } : {}),
    ...(signal ? { signal } : {}),
  };
  const { steps, latencies, cutShort, cutBy } = await runRamp(driver, options);

  const stopped = signal?.aborted === true ? String(signal.reason ?? 'stopped') : undefined;
  signal?.removeEventListener('abort', stop);
  if (stopped === undefined) {
    await client.close();
    await sendFailuresAlone(options, driver.failures);
    await probeSmallWrites(driver, steps[0], latencies[0]);
  }

  const verdict = loadVerdict({
    model,
    levels: options.levels,
    steps,
    latencies,
    deadlineMs: target.timeoutMs,
    minLevel: options.minLevel,
    minLevelGiven: options.minLevelGiven,
    slos: options.slos ?? [],
    ...(model === 'open' ? { maxInFlight } : {}),
    ...(cutShort !== undefined ? { cutShort } : {}),
    ...(cutBy !== undefined ? { cutBy } : {}),
    ...(stopped !== undefined ? { stopped } : {}),
  });
  const report: LoadReport = {
    kind: 'load',
    model,
    seller_url: target.sellerUrl,
    catalogue: catalogue.origin,
    seed,
    mix,
    orders: options.orders,
    step_seconds: options.stepSeconds,
    levels: options.levels,
    ...(model === 'open' ? { max_in_flight: maxInFlight } : {}),
    max_requests: options.maxRequests,
    max_requests_source: options.maxRequestsSource ?? 'given',
    steps,
    verdict,
    ...(stopped !== undefined ? { stopped } : {}),
  };
  return { report, failures: driver.failures };
}
