import { RULES, type Violation } from '../../contracts/reply-rules/index';
import type { ValidationIssue } from '../../contracts/validator';
import type { PactFailure, PactMismatch } from '../verify/pact-results';
import type { Exchange } from '../rules-proxy/proxied-exchange';
import type { ExchangeTiming } from './exchange-outcome';
import { notOfferedReason, type NotOffered } from '../states/not-offered';
import type { ChangedSince, InteractionNotes } from '../verify/interaction-notes';
import type { CompatReport, CompatSideInfo } from '../compat/compat-report';
import { finishRun, type RunIdentity, type RunStart } from './run-identity';
import { explainedMismatch } from '../verify/pact-matchers';
import { curlCommand } from '../../shared/curl-command';

// The vendor's report: per interaction (Pact's verdict and the reply rules' verdict on the
// same exchange) and per rule (every breach with item id, JSON path, expected and found).

import { SCHEMA_RULE } from '../../contracts/reply-rules/rules-by-operation';

export { SCHEMA_RULE };
export const SCHEMA_RULE_DESCRIPTION = "The reply has the contract's shape (required fields, types, formats, codes)";

export interface InteractionReport {
  description: string;
  states: string[];
  /**
   * Pact's verdict; 'not-run' when the run was stopped before this
   * interaction; 'not-offered' when the seller declared it so.
   */
  pact: 'passed' | 'failed' | 'not-run' | 'not-offered';
  pactMismatches: PactMismatch[];
  rules: 'passed' | 'failed' | 'not-checked' | 'not-run' | 'not-offered';
  /** Why an optional interaction was left out: `NOT OFFERED (optional): …`. */
  notOffered?: string;
  /** Parameters of the state no value was given for: the contract's examples were sent (param → example). */
  exampleValues?: Record<string, string>;
  schemaErrors: ValidationIssue[];
  violations: Violation[];
  notes: (ValidationIssue | Violation)[];
  /** Things that stopped a check: state set-up errors, no answer in time, the seller unreachable, HTTP errors. */
  problems: string[];
  /**
   * How the last exchange ended; on a timeout no `status` (the seller sent
   * none in time): `noAnswerWithinMs`, and a late answer's `lateStatus`.
   */
  exchange?: ExchangeTiming;
  /** Run as pending: verified and reported (PASS or FAIL), never failing the run. */
  pending?: true;
  /**
   * Why it is pending: marked so in the pact, new or changed
   * since `--since` (with `--pending`), or pending at the broker.
   */
  pendingReason?: string;
  /** What changed in it since the contract given to `--since`. */
  changedSince?: ChangedSince;
  /**
   * The last request sent to the seller for it, as a curl command (the vendor's own --header
   * values left out: they may be secrets); it reproduces the failure once the states are set up.
   */
  curl?: string;
}

export interface RuleBreach {
  interaction: string;
  id?: string;
  path: string;
  message: string;
  expected?: unknown;
  found?: unknown;
}

export interface RuleSummary {
  rule: string;
  description: string;
  breaches: RuleBreach[];
}

export interface VerificationReport {
  ok: boolean;
  sellerUrl: string;
  /** What was judged: toolkit and contract versions, the pacts' sha256, the seller, when and how long. */
  run?: RunIdentity;
  interactions: InteractionReport[];
  rules: RuleSummary[];
  /** Set when Pact could not run at all. */
  fatal?: string;
  /** The signal that stopped the run before every interaction ran. */
  stopped?: string;
  /** With `--since`: the two contracts compared and the count of changes per class. */
  since?: { base: CompatSideInfo; head: CompatSideInfo; summary: CompatReport['summary'] };
  /** Most interactions failed and no state source was given (run-verification.ts says so). */
  noStateSource?: NoStateSourceNote;
}

/** Set by runVerification, printed by the reports: the run asked the contract's examples, and most failed. */
export interface NoStateSourceNote {
  failed: number;
  ran: number;
  /** The sentence to print, with the command that writes a state map. */
  text: string;
}

/** What the kit saw for one interaction: Pact's verdict, the exchanges tagged with it, its state changes. */
export interface InteractionRun {
  description: string;
  states: string[];
  /** Absent when the interaction was not run (the run was stopped first). */
  pact?: { failure?: PactFailure; problem?: string };
  exchanges: Exchange[];
  stateErrors: string[];
  /** Example value → the value the seller was sent, for Pact's mismatch texts. */
  injected: Map<string, string>;
  /** State parameters the state source gave no value for → the contract's example sent instead. */
  exampleValues: Map<string, string>;
  /** Set when the seller declared this optional interaction not offered: it is not run. */
  notOffered?: NotOffered;
  /** What changed in it since `--since`, and whether it runs as pending. */
  marks?: InteractionNotes;
}

/** Pact quotes the contract's examples; the vendor wants to read the values their seller was sent. */
function withInjectedValues(mismatch: PactMismatch, injected: Map<string, string>): PactMismatch {
  let message = mismatch.message;
  for (const [example, value] of injected)
    message = message
      .split(JSON.stringify(example))
      .join(JSON.stringify(value))
      .split(`'${example}'`)
      .join(`'${value}'`);
  // An expected value that is an injected example: the value the seller was sent is what it should echo.
  const expected = mismatch.expected;
  const sent =
    (typeof expected === 'string' || typeof expected === 'number') && injected.has(String(expected))
      ? injected.get(String(expected))
      : undefined;
  return {
    ...mismatch,
    message,
    ...(sent !== undefined
      ? { expected: typeof expected === 'number' && sent !== '' && !Number.isNaN(Number(sent)) ? Number(sent) : sent }
      : {}),
  };
}

/** A broker's pending pacts (`--enable-pending`) are known pending only by how Pact reports their failures. */
const PENDING_AT_BROKER = 'pending at the broker (a pending pact or interaction)';

export function interactionReport(run: InteractionRun): InteractionReport {
  const pendingReason = run.marks?.pending ?? (run.pact?.failure?.pending === true ? PENDING_AT_BROKER : undefined);
  const base = {
    description: run.description,
    states: run.states,
    schemaErrors: [],
    violations: [],
    notes: [],
    ...(pendingReason !== undefined ? { pending: true as const, pendingReason } : {}),
    ...(run.marks?.changedSince !== undefined ? { changedSince: run.marks.changedSince } : {}),
  };
  if (run.notOffered !== undefined)
    return {
      ...base,
      pact: 'not-offered',
      pactMismatches: [],
      rules: 'not-offered',
      notOffered: notOfferedReason(run.notOffered),
      problems: [],
    };
  if (run.pact === undefined)
    return {
      ...base,
      pact: 'not-run',
      pactMismatches: [],
      rules: 'not-run',
      problems: ['not run: the verification was stopped first'],
    };
  const exchange = run.exchanges[run.exchanges.length - 1];
  const problems = [...run.stateErrors];
  if (run.pact.problem !== undefined) problems.push(run.pact.problem);
  if (exchange === undefined && problems.length === 0)
    problems.push('no request for this interaction reached the seller');
  for (const e of run.exchanges) {
    if (e.problem !== undefined) problems.push(e.problem);
    if (e.late !== undefined) problems.push(e.late);
  }
  // A 502/504 made by the kit's own proxy is not the seller's answer: Pact's mismatches about it say nothing.
  const proxyAnswered = run.exchanges.some((e) => e.proxyAnswer !== undefined);
  const check = exchange?.check;
  return {
    ...base,
    pact: run.pact.failure === undefined && run.pact.problem === undefined ? 'passed' : 'failed',
    pactMismatches: proxyAnswered
      ? []
      : (run.pact.failure?.mismatches ?? []).map((m) => withInjectedValues(m, run.injected)),
    rules: check === undefined ? 'not-checked' : check.ok ? 'passed' : 'failed',
    schemaErrors: check?.errors ?? [],
    violations: check?.violations ?? [],
    notes: check?.notes ?? [],
    problems,
    ...(run.exampleValues.size > 0 ? { exampleValues: Object.fromEntries(run.exampleValues) } : {}),
    ...(exchange !== undefined
      ? {
          exchange: {
            ...(exchange.limitMs === undefined ? { status: exchange.status } : { noAnswerWithinMs: exchange.limitMs }),
            elapsedMs: exchange.elapsedMs,
            ...(exchange.answeredAfterMs !== undefined ? { answeredAfterMs: exchange.answeredAfterMs } : {}),
            ...(exchange.limitMs !== undefined && exchange.answeredAfterMs !== undefined && exchange.status !== 0
              ? { lateStatus: exchange.status }
              : {}),
          },
        }
      : {}),
  };
}

export const interactionPassed = (i: InteractionReport): boolean =>
  i.pact === 'passed' && i.rules === 'passed' && i.problems.length === 0;
/** Passed, an optional interaction the seller declared not offered, or a pending one that ran: none fails the run. */
export const interactionAccepted = (i: InteractionReport): boolean =>
  interactionPassed(i) || i.pact === 'not-offered' || (i.pending === true && i.pact !== 'not-run');

/** A pending interaction that did not pass: shown as FAIL and PENDING, not counted against the run. */
export const pendingFailure = (i: InteractionReport): boolean =>
  i.pending === true && (i.pact === 'passed' || i.pact === 'failed') && !interactionPassed(i);

/** For a failing interaction whose state lacked values: which of the contract's examples were sent. */
export const exampleValuesNote = (i: InteractionReport): string | undefined =>
  i.exampleValues === undefined || interactionAccepted(i)
    ? undefined
    : `state '${i.states.join("', '")}' had no value for ${Object.entries(i.exampleValues)
        .map(([param, example]) => `${param} (the contract's example ${JSON.stringify(example)} was sent)`)
        .join(', ')}: give your own in the state map or state callback`;

/** The request body as it was sent: the text when the proxy could not parse it. */
const requestBody = (request: unknown): string | undefined =>
  request === undefined ? undefined : typeof request === 'string' ? request : JSON.stringify(request);

/** What only the whole run knows: the curl command (the seller's URL) and the pact's matchers (its files). */
function finished(
  report: InteractionReport,
  run: InteractionRun,
  sellerUrl: string,
  start?: RunStart,
): InteractionReport {
  const exchange = run.exchanges.at(-1);
  const rules = start?.replyMatchers?.get(run.description);
  return {
    ...report,
    pactMismatches: report.pactMismatches.map((m) => explainedMismatch(m, rules)),
    ...(exchange !== undefined && (report.pact === 'passed' || report.pact === 'failed') && !interactionPassed(report)
      ? { curl: curlCommand(sellerUrl, requestBody(exchange.request)) }
      : {}),
  };
}

/** The report from every interaction's run, plus every breach gathered per rule. */
export function buildReport(
  sellerUrl: string,
  runs: InteractionRun[],
  extra: { fatal?: string; stopped?: string; since?: VerificationReport['since']; start?: RunStart } = {},
): VerificationReport {
  const { start, ...rest } = extra;
  const interactions = runs.map((r) => finished(interactionReport(r), r, sellerUrl, start));
  const byRule = new Map<string, RuleSummary>();
  const add = (rule: string, description: string, breach: RuleBreach) => {
    let summary = byRule.get(rule);
    if (summary === undefined) byRule.set(rule, (summary = { rule, description, breaches: [] }));
    summary.breaches.push(breach);
  };
  for (const i of interactions) {
    for (const e of i.schemaErrors)
      add(SCHEMA_RULE, SCHEMA_RULE_DESCRIPTION, { interaction: i.description, path: e.path, message: e.message });
    for (const v of i.violations) {
      add(v.rule, RULES[v.rule as keyof typeof RULES] ?? v.rule, {
        interaction: i.description,
        ...(v.id !== undefined ? { id: v.id } : {}),
        path: v.path,
        message: v.message,
        ...(v.expected !== undefined ? { expected: v.expected } : {}),
        ...(v.found !== undefined ? { found: v.found } : {}),
      });
    }
  }
  const rules = [...byRule.values()].sort((a, b) => a.rule.localeCompare(b.rule));
  const ok =
    extra.fatal === undefined &&
    extra.stopped === undefined &&
    interactions.some(interactionPassed) &&
    interactions.every(interactionAccepted);
  return { ok, sellerUrl, ...(start !== undefined ? { run: finishRun(start) } : {}), interactions, rules, ...rest };
}
