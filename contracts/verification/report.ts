import { RULES, type Violation } from '../reply-rules/index';
import type { ValidationIssue } from '../validator';
import type { PactMismatch, PactResults } from './pact-results';
import { failureOf } from './pact-results';
import type { Exchange } from './rules-proxy';

// The vendor's report: per interaction (Pact's verdict and the reply rules' verdict on the
// same exchange) and per rule (every breach with item id, JSON path, expected and found).

/** Schema errors are reported under this name, beside the reply rules. */
export const SCHEMA_RULE = 'reply.schema';
export const SCHEMA_RULE_DESCRIPTION = "The reply has the contract's shape (required fields, types, formats, codes)";

export interface InteractionReport {
  description: string;
  states: string[];
  pact: 'passed' | 'failed';
  pactMismatches: PactMismatch[];
  rules: 'passed' | 'failed' | 'not-checked';
  schemaErrors: ValidationIssue[];
  violations: Violation[];
  notes: (ValidationIssue | Violation)[];
  /** Things that stopped a check: state set-up errors, HTTP errors, no exchange seen. */
  problems: string[];
  exchange?: { status: number; elapsedMs: number };
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
  interactions: InteractionReport[];
  rules: RuleSummary[];
  /** Set when Pact could not run at all. */
  fatal?: string;
}

export interface PlannedInteraction {
  description: string;
  states: { name: string; params?: Record<string, unknown> }[];
}

export interface ObservedExchange {
  exchange: Exchange;
  /** The states set up just before it. */
  states: { name: string; params?: Record<string, unknown> }[];
  stateErrors: string[];
}

const sameStates = (a: PlannedInteraction['states'], b: PlannedInteraction['states']) =>
  a.length === b.length && a.every((s, i) => s.name === b[i].name && JSON.stringify(s.params ?? {}) === JSON.stringify(b[i].params ?? {}));

/** Pairs each planned interaction with the exchange made for it (same states, in order). */
export function buildReport(sellerUrl: string, planned: PlannedInteraction[], observed: ObservedExchange[], pact: PactResults): VerificationReport {
  const unused = [...observed];
  const interactions: InteractionReport[] = planned.map((plan) => {
    const at = unused.findIndex((o) => sameStates(o.states, plan.states));
    const seen = at >= 0 ? unused.splice(at, 1)[0] : undefined;
    const failure = failureOf(pact, plan.description);
    const check = seen?.exchange.check;
    const problems = [...(seen?.stateErrors ?? [])];
    if (seen === undefined) problems.push('no request for this interaction reached the seller');
    else if (seen.exchange.problem !== undefined) problems.push(seen.exchange.problem);
    return {
      description: plan.description,
      states: plan.states.map((s) => s.name),
      pact: failure === undefined && pact.fatal === undefined ? 'passed' : 'failed',
      pactMismatches: failure?.mismatches ?? [],
      rules: check === undefined ? 'not-checked' : check.ok ? 'passed' : 'failed',
      schemaErrors: check?.errors ?? [],
      violations: check?.violations ?? [],
      notes: check?.notes ?? [],
      problems,
      ...(seen !== undefined ? { exchange: { status: seen.exchange.status, elapsedMs: seen.exchange.elapsedMs } } : {}),
    };
  });
  // Exchanges no planned interaction claimed (pacts from a broker): reported by their states.
  for (const extra of unused) {
    const check = extra.exchange.check;
    interactions.push({
      description: `request ${extra.exchange.index} (${extra.exchange.service ?? 'unknown service'})`,
      states: extra.states.map((s) => s.name),
      pact: 'passed',
      pactMismatches: [],
      rules: check === undefined ? 'not-checked' : check.ok ? 'passed' : 'failed',
      schemaErrors: check?.errors ?? [],
      violations: check?.violations ?? [],
      notes: check?.notes ?? [],
      problems: [...extra.stateErrors, ...(extra.exchange.problem !== undefined ? [extra.exchange.problem] : [])],
      exchange: { status: extra.exchange.status, elapsedMs: extra.exchange.elapsedMs },
    });
  }
  // Pact failures for interactions we did not plan (broker pacts).
  for (const failure of pact.failures) {
    if (planned.some((p) => failureOf({ ok: false, failures: [failure] }, p.description) !== undefined)) continue;
    interactions.push({ description: failure.interaction, states: [], pact: 'failed', pactMismatches: failure.mismatches, rules: 'not-checked', schemaErrors: [], violations: [], notes: [], problems: [] });
  }

  const byRule = new Map<string, RuleSummary>();
  const add = (rule: string, description: string, breach: RuleBreach) => {
    let summary = byRule.get(rule);
    if (summary === undefined) byRule.set(rule, (summary = { rule, description, breaches: [] }));
    summary.breaches.push(breach);
  };
  for (const i of interactions) {
    for (const e of i.schemaErrors) add(SCHEMA_RULE, SCHEMA_RULE_DESCRIPTION, { interaction: i.description, path: e.path, message: e.message });
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
  const ok = pact.fatal === undefined && interactions.every((i) => i.pact === 'passed' && i.rules === 'passed' && i.problems.length === 0);
  return { ok, sellerUrl, interactions, rules, ...(pact.fatal !== undefined ? { fatal: pact.fatal } : {}) };
}
