import { curlCommand } from '../../shared/curl-command';
import { requestBody, type SellerTarget } from '../explore/exchange';
import type { ExploreCase } from '../explore/generators';
import { ANSWER_RULE, type ExploreRule } from '../explore/rule-coverage';
import type { LoadOutcome } from './load-exchange';
import type { LoadFailingExchange } from './load-report';

// What one step of a load run saw, exchange by exchange, whichever model sent them: the
// latencies (a typed array grown by doubling: no boxed number per exchange), timeouts, errors,
// rule breaks, and for the first failure of each rule the requests in flight beside it — the requests in
// flight beside it and those that ended after it started.

/** Requests kept beside a failure: enough to replay the requests that were beside it. */
const MAX_COMPANIONS = 64;

/** One request in flight. */
export interface Flight {
  c: ExploreCase;
  start: number;
  end: number;
}

/** What a failing exchange needs until it is reported: its request and the requests beside it. */
export interface PendingFailure extends LoadFailingExchange {
  case: ExploreCase;
  companionCases: ExploreCase[];
}

export class StepRecorder {
  exchanges = 0;
  timeouts = 0;
  errors = 0;
  /** Replies that broke at least one reply rule or the schema (an exchange counts once). */
  repliesBroken = 0;
  readonly ruleBreaks: Partial<Record<ExploreRule, number>> = {};
  readonly firstFailures: Partial<Record<ExploreRule, LoadFailingExchange>> = {};
  private latencies = new Float64Array(1024);
  private readonly inFlight = new Set<Flight>();
  private readonly recent: Flight[] = [];
  private recentNext = 0;

  /**
   * `ring`: how many ended flights are kept beside failures (4 × the requests in flight);
   * `failures`: the run's list, each first failure of a rule is added to it.
   */
  constructor(
    private readonly target: SellerTarget,
    private readonly ring: number,
    private readonly failures: PendingFailure[],
  ) {}

  get inFlightCount(): number {
    return this.inFlight.size;
  }

  begin(c: ExploreCase): Flight {
    const flight: Flight = { c, start: performance.now(), end: Infinity };
    this.inFlight.add(flight);
    return flight;
  }

  /** `latencyMs`: what the model counts (the open model adds the send's lag behind its schedule). */
  end(flight: Flight, outcome: LoadOutcome, latencyMs: number): void {
    flight.end = performance.now();
    this.inFlight.delete(flight);
    this.recent[this.recentNext] = flight;
    this.recentNext = (this.recentNext + 1) % this.ring;
    if (this.exchanges === this.latencies.length) {
      const grown = new Float64Array(this.latencies.length * 2);
      grown.set(this.latencies);
      this.latencies = grown;
    }
    this.latencies[this.exchanges++] = latencyMs;
    if (outcome.timedOut) {
      this.timeouts++;
      return;
    }
    if (outcome.findings.length === 0) return;
    if (outcome.findings.some((f) => f.rule === ANSWER_RULE)) this.errors++;
    if (outcome.findings.some((f) => f.rule !== ANSWER_RULE)) this.repliesBroken++;
    const brokenHere = new Set<ExploreRule>();
    for (const f of outcome.findings) {
      if (brokenHere.has(f.rule)) continue;
      brokenHere.add(f.rule);
      this.ruleBreaks[f.rule] = (this.ruleBreaks[f.rule] ?? 0) + 1;
      if (this.firstFailures[f.rule] !== undefined) continue;
      const failure: PendingFailure = {
        rule: f.rule,
        operation: flight.c.operation,
        path: f.path,
        message: f.message,
        request: flight.c.request,
        curl: curlCommand(this.target.sellerUrl, requestBody(flight.c), this.target.headers),
        reproduces: 'not-checked',
        case: flight.c,
        companionCases: this.companionsOf(flight),
      };
      this.firstFailures[f.rule] = failure;
      this.failures.push(failure);
    }
  }

  /** The latencies recorded, in the order they ended. */
  recorded(): Float64Array {
    return this.latencies.subarray(0, this.exchanges);
  }

  private companionsOf(flight: Flight): ExploreCase[] {
    const ended = [...this.recent.slice(this.recentNext), ...this.recent.slice(0, this.recentNext)]; // oldest first
    return [...this.inFlight, ...ended.filter((r) => r !== flight && r.end > flight.start)]
      .slice(0, MAX_COMPANIONS)
      .map((r) => r.c);
  }
}
