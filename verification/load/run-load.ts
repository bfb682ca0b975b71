import type { ForwardedOperation } from '../../contracts/reply-check';
import type { Catalogue } from '../explore/catalogue';
import { curlCommand } from '../../shared/curl-command';
import { requestBody, type SellerTarget } from '../explore/exchange';
import { createLoadClient } from './load-exchange';
import { exploreCase, type ExploreCase } from '../explore/generators';
import { ANSWER_RULE, type ExploreRule } from '../explore/rule-coverage';
import { generatedCases } from '../explore/run-exploration';
import { ALONE_TRIES, reproducesAlone } from '../explore/alone';
import type { LoadFailingExchange, LoadReport, LoadStep, RuleUnderConcurrency } from './load-report';
import { mixPicker, type LoadMix } from './load-mix';
import { percentiles } from './percentiles';

// The load run: the explorer's generated requests in the gateway's operation mix, sent at
// each concurrency of the ramp for a fixed time, every reply judged by the schema and the
// reply rules. The verdict names the knee: the highest step (with every one below it) whose
// p99 is under the deadline, with no timeout, no error and no broken rule.

export interface LoadOptions {
  /** timeoutMs is the deadline: the gateway's per-member timeout. */
  target: SellerTarget;
  catalogue: Catalogue;
  seed: number;
  mix: LoadMix;
  /** false: no place order at all (a production-like system). */
  orders: boolean;
  concurrencies: number[];
  stepSeconds: number;
  /** Requests the whole run may send; a step stops early once reached. */
  maxRequests: number;
  minConcurrency: number;
  /** Lone re-sends of a failing request before it is called "only under concurrency". */
  aloneTries?: number;
  signal?: AbortSignal;
  onStep?: (step: LoadStep) => void;
}

/** Generated requests per operation; a run cycles through them (orders get fresh PO numbers). */
const POOL = 256;
/** Requests kept beside a failure: enough to replay the company it had. */
const MAX_COMPANIONS = 64;

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

interface Flight {
  c: ExploreCase;
  start: number;
  end: number;
}

/** What a failing exchange needs until it is reported: its request and its company. */
export interface PendingFailure extends LoadFailingExchange {
  case: ExploreCase;
  companionCases: ExploreCase[];
}

export interface LoadResult {
  report: LoadReport;
  /** The failures behind the report's first_failures, with their requests as generated. */
  failures: PendingFailure[];
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const { target, catalogue, seed, signal } = options;
  const mix = feedableMix(options.mix, catalogue, options.orders);
  const operations = Object.keys(mix) as ForwardedOperation[];
  if (operations.length === 0) throw new Error('the mix leaves nothing this catalogue can feed');
  const pools = new Map<ForwardedOperation, ExploreCase[]>(
    operations.map((operation, i) => [operation, generatedCases(exploreCase(catalogue, [operation]), seed + i, POOL)]),
  );
  const pick = mixPicker(mix);
  const random = prng(seed);
  let sent = 0;
  let orderNumber = 0;
  const nextCase = (): ExploreCase => {
    const operation = pick(random());
    const pool = pools.get(operation)!;
    const c = pool[Math.floor(random() * pool.length)];
    if (c.operation !== 'place-order') return c;
    // Every order a new PO number: a repeated one is a different question (a duplicate).
    return { ...c, request: { ...c.request, purchase_order_number: `PO-LOAD-${seed}-${++orderNumber}` } };
  };

  const client = createLoadClient(target, Math.max(...options.concurrencies));
  // The stop aborts every exchange in flight at once: the partial report follows within a second.
  const stop = () => void client.close();
  signal?.addEventListener('abort', stop, { once: true });
  const steps: LoadStep[] = [];
  const failures: PendingFailure[] = [];
  let stopped: string | undefined;

  for (const concurrency of options.concurrencies) {
    if (signal?.aborted || sent >= options.maxRequests) break;
    // Latencies in a typed array grown by doubling: no boxed number per exchange.
    let latencies = new Float64Array(1024);
    const step: LoadStep = {
      concurrency,
      seconds: 0,
      exchanges: 0,
      throughput_per_s: 0,
      latency_ms: { p50: 0, p95: 0, p99: 0, max: 0 },
      timeouts: 0,
      errors: 0,
      rule_breaks: {},
      first_failures: {},
      healthy: false,
    };
    const inFlight = new Set<Flight>();
    // The last 4 × concurrency flights, a ring: the company a failure is reported with.
    const recent: Flight[] = [];
    let recentNext = 0;
    const started = performance.now();
    const until = started + options.stepSeconds * 1000;

    const worker = async () => {
      while (performance.now() < until && sent < options.maxRequests && !signal?.aborted) {
        sent++;
        const c = nextCase();
        const flight: Flight = { c, start: performance.now(), end: Infinity };
        inFlight.add(flight);
        const outcome = await client.exchange(c);
        flight.end = performance.now();
        inFlight.delete(flight);
        if (signal?.aborted) return; // cut short by the stop: not a finding
        recent[recentNext] = flight;
        recentNext = (recentNext + 1) % (4 * concurrency);
        if (step.exchanges === latencies.length) {
          const grown = new Float64Array(latencies.length * 2);
          grown.set(latencies);
          latencies = grown;
        }
        latencies[step.exchanges++] = outcome.waitMs;
        if (outcome.timedOut) {
          step.timeouts++;
          continue;
        }
        if (outcome.findings.length === 0) continue;
        if (outcome.findings.some((f) => f.rule === ANSWER_RULE)) step.errors++;
        const brokenHere = new Set<ExploreRule>();
        for (const f of outcome.findings) {
          if (brokenHere.has(f.rule)) continue;
          brokenHere.add(f.rule);
          step.rule_breaks[f.rule] = (step.rule_breaks[f.rule] ?? 0) + 1;
          if (step.first_failures[f.rule] !== undefined) continue;
          // Its company: requests in flight now, and those that ended after it started.
          const ended = [...recent.slice(recentNext), ...recent.slice(0, recentNext)]; // oldest first
          const companions = [...inFlight, ...ended.filter((r) => r !== flight && r.end > flight.start)].slice(0, MAX_COMPANIONS).map((r) => r.c);
          const failure: PendingFailure = {
            rule: f.rule,
            operation: c.operation,
            path: f.path,
            message: f.message,
            request: c.request,
            curl: curlCommand(target.sellerUrl, requestBody(c), target.headers),
            reproduces: 'not-checked',
            case: c,
            companionCases: companions,
          };
          step.first_failures[f.rule] = failure;
          failures.push(failure);
        }
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    const seconds = (performance.now() - started) / 1000;
    step.seconds = Math.round(seconds * 1000) / 1000;
    step.throughput_per_s = Math.round((step.exchanges / seconds) * 10) / 10;
    step.latency_ms = percentiles(latencies.subarray(0, step.exchanges));
    step.healthy =
      step.exchanges > 0 && step.latency_ms.p99 < target.timeoutMs && step.timeouts === 0 && step.errors === 0 && Object.keys(step.rule_breaks).length === 0;
    if (signal?.aborted) {
      step.partial = true;
      stopped = String(signal.reason ?? 'stopped');
    }
    steps.push(step);
    options.onStep?.(step);
  }
  if (signal?.aborted) stopped ??= String(signal.reason ?? 'stopped');
  signal?.removeEventListener('abort', stop);
  if (!signal?.aborted) await client.close();

  // Each first failure sent alone a few times: one that never breaks alone needs company.
  if (!signal?.aborted) {
    for (const failure of failures) {
      if (failure.rule === ANSWER_RULE) continue; // timeouts and errors: load itself, not a reply to judge
      const alone = await reproducesAlone(target, failure.case, failure.rule, options.aloneTries ?? ALONE_TRIES, signal);
      if (alone === undefined) break; // stopped
      failure.reproduces = alone ? 'alone' : 'only-under-concurrency';
      if (!alone) failure.companions = failure.companionCases.map((c) => c.request);
    }
  }

  const knee = kneeOf(steps);
  const rulesUnderConcurrency = rulesBreakingLater(steps);
  const report: LoadReport = {
    kind: 'load',
    seller_url: target.sellerUrl,
    catalogue: catalogue.origin,
    seed,
    mix,
    orders: options.orders,
    step_seconds: options.stepSeconds,
    max_requests: options.maxRequests,
    steps,
    verdict: {
      knee,
      deadline_ms: target.timeoutMs,
      min_concurrency: options.minConcurrency,
      rules_under_concurrency: rulesUnderConcurrency,
      ok: stopped === undefined && knee !== null && knee >= options.minConcurrency,
    },
    ...(stopped !== undefined ? { stopped } : {}),
  };
  return { report, failures };
}

/** The highest step with every step up to it healthy. */
export function kneeOf(steps: LoadStep[]): number | null {
  let knee: number | null = null;
  for (const step of steps) {
    if (!step.healthy || step.partial) break;
    knee = step.concurrency;
  }
  return knee;
}

/** Rules kept at the first step and broken at a later one, with the step they first broke at. */
export function rulesBreakingLater(steps: LoadStep[]): RuleUnderConcurrency[] {
  if (steps.length === 0) return [];
  const atFirst = new Set(Object.keys(steps[0].rule_breaks));
  const out = new Map<ExploreRule, RuleUnderConcurrency>();
  for (const step of steps.slice(1)) {
    for (const rule of Object.keys(step.rule_breaks) as ExploreRule[]) {
      if (atFirst.has(rule) || out.has(rule) || rule === ANSWER_RULE) continue;
      out.set(rule, { rule, first_broken_at: step.concurrency, first_failure: step.first_failures[rule]! });
    }
  }
  return [...out.values()];
}
