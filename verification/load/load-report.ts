import type { ForwardedOperation } from '../../contracts/reply-check';
import type { ExploreRule } from '../explore/rule-coverage';

// The JSON report of `verify --load --json`: what the text, JUnit and HTML reports are drawn
// from. Plain data (no class, no Map), so it can be written, read back and rendered elsewhere.

export interface LatencyMs {
  p50: number;
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

export interface LoadStep {
  concurrency: number;
  /** How long the step ran, seconds. */
  seconds: number;
  exchanges: number;
  throughput_per_s: number;
  latency_ms: LatencyMs;
  /** Replies not received within the deadline (--timeout). */
  timeouts: number;
  /** Transport failures and non-200 answers other than timeouts. */
  errors: number;
  /** Broken rules by rule id (an exchange counts once per rule it broke). */
  rule_breaks: Partial<Record<ExploreRule, number>>;
  /** The first failing exchange per rule. */
  first_failures: Partial<Record<ExploreRule, LoadFailingExchange>>;
  /** p99 under the deadline, no timeouts, no rule broken. */
  healthy: boolean;
  /** Set when the step was cut short (SIGINT). */
  partial?: boolean;
}

/** A rule that held at the lower steps and broke from some concurrency on. */
export interface RuleUnderConcurrency {
  rule: ExploreRule;
  /** The concurrency of the first step where it broke. */
  first_broken_at: number;
  first_failure: LoadFailingExchange;
}

export interface LoadVerdict {
  /** The highest step with p99 under the deadline, no timeouts and no rule broken (every lower step too); null when even the first fails. */
  knee: number | null;
  deadline_ms: number;
  /** --min-concurrency: the run fails when the knee is below it (0: no gate). */
  min_concurrency: number;
  /** Rules broken only at a higher concurrency than the first step. */
  rules_under_concurrency: RuleUnderConcurrency[];
  ok: boolean;
}

export interface LoadReport {
  kind: 'load';
  seller_url: string;
  catalogue: string;
  seed: number;
  /** The operation mix, weights by operation. */
  mix: Partial<Record<ForwardedOperation, number>>;
  orders: boolean;
  step_seconds: number;
  /** The bound on requests the run could send, printed before it started. */
  max_requests: number;
  steps: LoadStep[];
  verdict: LoadVerdict;
  /** Why the run ended early (e.g. 'SIGINT'); absent when every step ran. */
  stopped?: string;
}
