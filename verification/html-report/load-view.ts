import type { RunIdentity } from '../reports/run-identity';
// The view the load page is drawn from: the contract between the load run, which computes
// every verdict (health, correctness, the knee, SLO breaches, the verdict sentence), and the
// page, which only shows them. load-html.ts re-exports it; the run maps its report onto it.

export interface LoadStepView {
  /** The step's level: concurrency (closed model) or target rate in requests/s (open model). */
  level: number;
  exchanges: number;
  throughput_per_s: number;
  latency_ms: { p50: number; p90: number; p95: number; p99: number; max: number };
  timeouts: number;
  errors: number;
  /**
   * Broken rules by rule name (an exchange counts once per rule it broke); includes 'answer' (HTTP/transport) breaks.
   */
  rule_breaks: Partial<Record<string, number>>;
  /**
   * Capacity: p99 under the deadline, no timeout, no error, (open model) schedule kept. Computed by the run, not here.
   */
  healthy: boolean;
  /** Correctness: no reply rule or schema broken at this step. */
  correct: boolean;
  /** Cut short (budget spent, abort on an SLO breach, or a signal). */
  partial?: boolean;
  /** Open model: requests not sent because the in-flight cap was reached; and whether the schedule was kept. */
  dropped?: number;
  schedule_kept?: boolean;
  /** SLO expressions breached at this step, as written, e.g. 'p99<1s'. */
  slo_breaches?: string[];
  /** Closed model: set when the latencies suggest coordinated omission; the p99 had requests kept arriving. */
  coordinated_omission?: { corrected_p99_ms: number };
}

export interface SloLineView {
  /** As written on the command line, e.g. 'p95<300ms'. */
  expression: string;
  /**
   * Latency metrics are drawn on the latency chart (value in ms); 'rps' on the
   * throughput chart; others (errors, timeouts, dropped) are not drawn, only listed.
   */
  metric: 'p50' | 'p90' | 'p95' | 'p99' | 'max' | 'rps' | 'errors' | 'timeouts' | 'dropped';
  value: number;
  /** Breached at some step or for the run. */
  breached: boolean;
}

export interface RuleBrokenView {
  rule: string;
  /** The level of the first step where it broke. */
  first_level: number;
  /** Exchanges that broke it, all steps together. */
  exchanges: number;
  only_under_concurrency: boolean;
  /** Sends the first failing request alone; the message and where in the reply. */
  curl: string;
  message?: string;
  path?: string;
  /** Replays the first failure with the requests that were in flight beside it (only under concurrency). */
  replay?: string;
}

export interface LoadReportView {
  seller_url: string;
  /** What was judged (versions, seller, when, how long). */
  run?: RunIdentity;
  model: 'closed' | 'open';
  steps: LoadStepView[];
  /** Capacity only: the highest level up to which every step is healthy; null when even the first is not. */
  knee: number | null;
  /** True when the ramp was cut short above the knee: the knee reads "at least N (not measured beyond)". */
  knee_is_lower_bound: boolean;
  deadline_ms: number;
  /** Levels announced but never run, and why the ramp was cut short (a sentence), when it was. */
  not_run: number[];
  cut_short?: string;
  /** Every reply rule or schema broken at any step: any entry fails the run. */
  rules_broken: RuleBrokenView[];
  slo: SloLineView[];
  /** The verdict sentence exactly as the text report prints it (the lead computes it in one place), and the outcome. */
  verdict: string;
  ok: boolean;
  /** Sentences to show as warnings (coordinated omission suspected, schedule not kept, …). */
  warnings: string[];
  /** Hints that judge nothing (e.g. a TCP stack holding small writes); absent in older views. */
  notes?: string[];
  stopped?: string;
}
