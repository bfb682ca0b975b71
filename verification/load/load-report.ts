import type { ForwardedOperation } from '../../contracts/reply-check';
import type { ExploreRule } from '../explore/rule-coverage';
import type { RunIdentity } from '../reports/run-identity';

// The JSON report of `verify --load --json`: what the text, JUnit, CTRF and HTML reports are
// drawn from. Plain data (no class, no Map), so it can be written, read back and rendered elsewhere.
// Correctness and capacity are kept apart: a broken reply rule or schema at any step fails the
// run (verdict.rules_broken) whatever the knee; the knee speaks only of latency, timeouts,
// errors and (open model) the schedule.

export interface LatencyMs {
  p50: number;
  p90: number;
  p95: number;
  p99: number;
  max: number;
}

/** The first exchange of a step that broke a rule: enough to see it again. */
export interface LoadFailingExchange {
  rule: ExploreRule;
  operation: ForwardedOperation;
  /** JSON pointer into the reply. */
  path: string;
  message: string;
  /** The request body as sent. */
  request: unknown;
  /** Sends the same request alone. */
  curl: string;
  /**
   * Re-sent alone (a few times) after the run: 'alone' when it broke the same rule again,
   * 'only-under-concurrency' when every lone re-send was correct, 'not-checked' when the run
   * was stopped before it could be re-sent.
   */
  reproduces: 'alone' | 'only-under-concurrency' | 'not-checked';
  /** Requests that were in flight beside it (only under concurrency: replay them together). */
  companions?: unknown[];
  /** The command that replays it with its companions (only under concurrency). */
  replay?: string;
}

/**
 * The closed model: a fixed number of requests in flight, each sent when the one before it
 * answered. The open model: requests sent on a schedule at a fixed rate, whatever the replies do.
 */
export type LoadModel = 'closed' | 'open';

interface StepFigures {
  /** How long the step ran, seconds. */
  seconds: number;
  exchanges: number;
  throughput_per_s: number;
  /** Closed model: from send to reply. Open model: from the request's intended send time to its reply. */
  latency_ms: LatencyMs;
  /** Replies not received within the deadline (--timeout). */
  timeouts: number;
  /** Transport failures and non-200 answers other than timeouts. */
  errors: number;
  /** Replies that broke at least one reply rule or the schema (each counted once, whatever it broke). */
  replies_broken: number;
  /** Broken rules by rule id (an exchange counts once per rule it broke; reply.answer counts errors and timeouts). */
  rule_breaks: Partial<Record<ExploreRule, number>>;
  /** The first failing exchange per rule. */
  first_failures: Partial<Record<ExploreRule, LoadFailingExchange>>;
  /**
   * Capacity: p99 under the deadline, no timeout, no error (open model: the schedule kept too). Rules are not capacity.
   */
  healthy: boolean;
  /** Correctness: no reply rule and no schema broken at this step. */
  correct: boolean;
  /** SLO expressions (as written) breached at this step. */
  slo_breaches: string[];
  /** Set when the step was cut short: the request budget, an SLO breach with --abort-on-fail, or a signal. */
  partial?: boolean;
}

export interface ClosedStep extends StepFigures {
  model: 'closed';
  concurrency: number;
  /** Set when the latencies suggest coordinated omission (a stall the closed model hid). */
  coordinated_omission?: CoordinatedOmission;
  /** The run's first step at concurrency 1: set when its replies suggest the seller's TCP stack holds small writes. */
  small_writes_held?: SmallWritesHeld;
}

/** Replies a steady ~40 ms at concurrency 1 while the run's first, alone on a fresh connection, was fast. */
export interface SmallWritesHeld {
  /** The median of the step's replies after the first, ms. */
  steady_p50_ms: number;
  /** The run's first exchange: nothing else in flight, a fresh connection, ms. */
  lone_ms: number;
}

export interface OpenStep extends StepFigures {
  model: 'open';
  /** The arrival rate the schedule asked for, requests/s. */
  rate: number;
  /** Requests sent, over the time from the first to the last send. */
  sent_per_s: number;
  /**
   * Requests never sent: their time came while --max-in-flight requests
   * were still waiting (as the gateway refuses a call past its cap).
   */
  dropped: number;
  /** The most requests in flight at once. */
  peak_in_flight: number;
  /** How late the driver sent against the schedule (its own delay, counted in the latency too). */
  send_lag_ms: { p99: number; max: number };
  /** Nothing dropped and at least 95% of the rate sent: the step measured the rate it names. */
  schedule_kept: boolean;
}

export type LoadStep = ClosedStep | OpenStep;

/** What the closed model's latencies hide when the seller stalls (HdrHistogram's correction). */
export interface CoordinatedOmission {
  /** The p99 had requests kept arriving at the step's median interval while the seller stalled. */
  corrected_p99_ms: number;
  /** The longest reply: the stall. */
  max_ms: number;
}

/** A rule broken at some step: correctness, so the run fails. */
export interface RuleBroken {
  rule: ExploreRule;
  /** The level (concurrency or rate) of the first step where it broke. */
  first_level: number;
  /** Exchanges that broke it, all steps together. */
  exchanges: number;
  /** It held at the first step and broke from a higher one (and its first failure is correct alone). */
  only_under_concurrency: boolean;
  first_failure: LoadFailingExchange;
}

/** A rule that held at the lower steps and broke from some concurrency on. */
export interface RuleUnderConcurrency {
  rule: ExploreRule;
  /** The level of the first step where it broke. */
  first_broken_at: number;
  first_failure: LoadFailingExchange;
}

export type SloMetric = 'p50' | 'p90' | 'p95' | 'p99' | 'max' | 'rps' | 'errors' | 'timeouts' | 'dropped';
export type SloComparison = '<' | '<=' | '=' | '>=' | '>';

/** One `--slo` threshold: latency in ms, rps in requests/s, counts as counts or (percent: true) shares of exchanges. */
export interface Slo {
  expression: string;
  metric: SloMetric;
  comparison: SloComparison;
  value: number;
  percent: boolean;
}

export interface SloResult extends Slo {
  /** Levels of the steps that breached it. */
  breached_at: number[];
  /** The run as a whole (every exchange of every step): the measured value, and whether it held. */
  run_value: number;
  run_held: boolean;
}

export interface LoadVerdict {
  /**
   * Capacity only: the highest level with every step up to it healthy and complete; null when even the first is not.
   */
  knee: number | null;
  /** The ramp was cut short above the knee: the knee is at least this (not measured beyond). */
  knee_is_lower_bound: boolean;
  deadline_ms: number;
  /**
   * The capacity gate: --min-concurrency (closed) or --min-rate (open); value 0 and given false: no
   * gate (then held says whether the first step was measured whole and held, and no flag is named).
   */
  gate: { flag: '--min-concurrency' | '--min-rate'; value: number; given: boolean; held: boolean; message: string };
  /** Every reply rule or schema broken at any step (any entry fails the run). */
  rules_broken: RuleBroken[];
  /** Rules broken only at a higher level than the first step. */
  rules_under_concurrency: RuleUnderConcurrency[];
  slo: SloResult[];
  /** Levels announced and never run, and why (absent when every step ran whole). */
  not_run: number[];
  cut_short?: string;
  /** Sentences the reader should see: coordinated omission suspected, a schedule not kept. */
  warnings: string[];
  /** Hints from the figures that judge nothing: e.g. a TCP stack holding small writes (small_writes_held). */
  notes: string[];
  /** The verdict as one line, the same in every form of the report. */
  summary: string;
  ok: boolean;
}

export interface LoadReport {
  kind: 'load';
  model: LoadModel;
  seller_url: string;
  /** What was judged: toolkit and contract versions, the seller, when and how long (no pact: generated exchanges). */
  run?: RunIdentity;
  catalogue: string;
  seed: number;
  /** The operation mix, weights by operation. */
  mix: Partial<Record<ForwardedOperation, number>>;
  orders: boolean;
  step_seconds: number;
  /** The levels announced: concurrencies (closed) or rates (open). */
  levels: number[];
  /** Open model: the in-flight cap. */
  max_in_flight?: number;
  /** The bound on requests the run could send, printed before it started, and how it was set. */
  max_requests: number;
  max_requests_source: 'given' | 'sized from the steps';
  steps: LoadStep[];
  verdict: LoadVerdict;
  /** Why the run ended early (e.g. 'SIGINT'); absent when it was not stopped by a signal. */
  stopped?: string;
}

/**
 * What a step showed, as every form of the report marks it: held (healthy, correct, within every
 * SLO, run whole), failed (a rule, an SLO, a timeout or an error, even in part of a step), or
 * cut short with nothing broken (not measured whole: never a pass, never the seller's failure).
 */
export function stepOutcome(step: LoadStep): 'held' | 'failed' | 'cut-short' {
  if (!step.correct || step.slo_breaches.length > 0 || step.timeouts > 0 || step.errors > 0) return 'failed';
  if (step.partial === true) return 'cut-short';
  return step.healthy ? 'held' : 'failed';
}

/** A step's level: its concurrency or its rate. */
export const levelOf = (step: LoadStep): number => (step.model === 'closed' ? step.concurrency : step.rate);

/** 'concurrency 8' or '200 req/s': how every form of the report names a step. */
export function levelName(model: LoadModel, level: number): string {
  switch (model) {
    case 'closed':
      return `concurrency ${level}`;
    case 'open':
      return `${level} req/s`;
  }
}
