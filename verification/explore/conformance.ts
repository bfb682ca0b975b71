import type { ForwardedOperation } from '../../contracts/reply-check';
import { RULES } from '../../contracts/reply-rules/violation';
import { TIME_LIMIT, type ExploreFailure, type ExploreResult } from './run-exploration';
import { ANSWER_RULE, RULES_OF, SCHEMA_RULE, type ExploreRule } from './rule-coverage';
import { ALL_OPERATIONS } from './generators';
import { finishRun, type RunIdentity, type RunStart } from '../reports/run-identity';

// The conformance report: per operation × rule, how often the rule was exercised, how often
// broken, and a score (the share of exercising exchanges that kept it). --min-score gates on
// how many exchanges must be answered at all (reply.answer: HTTP 200 with JSON, in time) —
// capacity, which a busy staging system may miss now and then. Correctness is not capacity: a
// broken reply rule or schema fails the run whatever the score.

export interface ConformanceRow {
  operation: ForwardedOperation;
  rule: ExploreRule;
  meaning: string;
  exercised: number;
  broken: number;
  /** 0–1; null when never exercised. */
  score: number | null;
  /** Exercised, and never broken (reply.answer: at or above --min-score). */
  passed: boolean;
}

export interface ConformanceReport {
  sellerUrl: string;
  /** What was judged: toolkit and contract versions, the seller, when and how long (no pact: generated exchanges). */
  run?: RunIdentity;
  catalogue: string;
  seed: number;
  runs: { planned: number; done: number };
  concurrency: number;
  elapsedMs: number;
  /** Share of the summed exchange time spent in our own checking (the rest: waiting for the seller). */
  checkShare: number;
  minScore: number;
  rows: ConformanceRow[];
  /** Exchanges that broke a reply rule or the schema, and exchanges not answered (each counted once). */
  broke?: { rules: number; unanswered: number };
  failures: ExploreFailure[];
  /** Lowest score of an exercised rule (1 when none broke). */
  lowestScore: number;
  ok: boolean;
  stopped?: string;
}

export const MEANING: Record<ExploreRule, string> = {
  ...RULES,
  [ANSWER_RULE]: 'The seller answers HTTP 200 with a JSON body within the limit',
  [SCHEMA_RULE]: "The reply has the contract's shape (types, required fields, code lists)",
};

export function conformanceReport(result: ExploreResult, minScore = 1, start?: RunStart): ConformanceReport {
  const rows: ConformanceRow[] = [];
  for (const operation of ALL_OPERATIONS) {
    const tally = result.tally[operation];
    if (tally === undefined) continue; // not generated (the catalogue could not feed it)
    for (const rule of RULES_OF[operation]) {
      const { exercised, broken } = tally[rule] ?? { exercised: 0, broken: 0 };
      const score = exercised === 0 ? null : (exercised - broken) / exercised;
      const passed = score !== null && (rule === ANSWER_RULE ? score >= minScore : broken === 0);
      rows.push({ operation, rule, meaning: MEANING[rule], exercised, broken, score, passed });
    }
  }
  const scores = rows.flatMap((r) => (r.score === null ? [] : [r.score]));
  const lowestScore = scores.length === 0 ? 1 : Math.min(...scores);
  const total = result.waitMs + result.checkMs;
  return {
    sellerUrl: result.sellerUrl,
    ...(start !== undefined ? { run: finishRun(start) } : {}),
    catalogue: result.catalogue,
    seed: result.seed,
    runs: { planned: result.planned, done: result.done },
    concurrency: result.concurrency,
    elapsedMs: Math.round(result.elapsedMs),
    checkShare: total === 0 ? 0 : result.checkMs / total,
    minScore,
    rows,
    ...(result.broke !== undefined ? { broke: result.broke } : {}),
    failures: result.failures,
    lowestScore,
    // A time limit is a planned end; a signal is not.
    ok:
      (result.stopped === undefined || result.stopped === TIME_LIMIT) &&
      result.done > 0 &&
      rows.every((r) => r.score === null || r.passed),
    ...(result.stopped !== undefined ? { stopped: result.stopped } : {}),
  };
}
