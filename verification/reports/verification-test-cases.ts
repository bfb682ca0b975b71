import {
  exampleValuesNote,
  interactionPassed,
  pendingFailure,
  type InteractionReport,
  type VerificationReport,
} from './verification-report';
import { changedSinceText } from '../verify/interaction-notes';
import { pactMismatchText, valueText } from './report-as-text';
import { exchangeOutcomeText } from './exchange-outcome';
import { withRun, type TestCase, type TestCaseList } from './test-cases';

// A verification as test cases, for JUnit and CTRF: one per interaction (classname its provider
// states, name its description), failed with Pact's mismatches and the broken reply rules,
// skipped when not offered, not run, or pending and failing (CI stays green, the failure is still
// there to read), and an error of its own when a signal stopped the run.

function findingLines(i: InteractionReport): string[] {
  const lines: string[] = [];
  for (const m of i.pactMismatches)
    lines.push(`pact${m.path !== undefined ? ` ${m.path}` : ''}: ${pactMismatchText(m)}`);
  for (const e of i.schemaErrors) lines.push(`reply.schema ${e.path || '/'}: ${e.message}`);
  for (const v of i.violations)
    lines.push(
      `${v.rule}${v.id !== undefined ? ` [id ${v.id}]` : ''} ${v.path}: ` +
        `${v.message}${v.expected !== undefined || v.found !== undefined ? ` (expected ${valueText(v.expected)}, found ${valueText(v.found)})` : ''}`,
    );
  for (const p of i.problems) lines.push(`problem: ${p}`);
  const examples = exampleValuesNote(i);
  if (examples !== undefined && lines.length > 0) lines.push(`example values: ${examples}`);
  if (i.exchange?.noAnswerWithinMs !== undefined) lines.push(`exchange: ${exchangeOutcomeText(i.exchange)}`);
  if (i.curl !== undefined && lines.length > 0) lines.push(`request (once its states are set up): ${i.curl}`);
  return lines;
}

function interactionCase(i: InteractionReport): TestCase {
  const base = {
    classname: i.states.join(' + ') || 'seller-system',
    name: i.description,
    seconds: (i.exchange?.elapsedMs ?? 0) / 1000,
    // What changed since --since travels as the case's output: every CI shows it, none counts it.
    ...(i.changedSince !== undefined ? { note: changedSinceText(i.changedSince) } : {}),
  };
  if (i.pact === 'not-offered')
    return { ...base, status: 'skipped', message: i.notOffered ?? 'NOT OFFERED (optional)' };
  if (i.pact === 'not-run')
    return { ...base, status: 'skipped', message: 'not run: the verification was stopped first' };
  const lines = findingLines(i);
  if (interactionPassed(i) && lines.length === 0) return { ...base, status: 'passed' };
  // A verdict with nothing to show (Pact failed without a mismatch) still fails, saying so.
  if (lines.length === 0) lines.push(`pact: ${i.pact}, reply rules: ${i.rules}`);
  const rules = [...new Set(i.violations.map((v) => v.rule).concat(i.schemaErrors.length > 0 ? ['reply.schema'] : []))];
  const message = [
    i.pact === 'failed' ? 'pact failed' : '',
    rules.length > 0 ? `broken rules: ${rules.join(', ')}` : '',
    i.problems.length > 0 ? 'problems' : '',
  ]
    .filter(Boolean)
    .join('; ');
  if (pendingFailure(i))
    return {
      ...base,
      status: 'skipped',
      message: `pending: ${message} — ${i.pendingReason ?? 'pending'}, never fails the run`,
      detail: lines.join('\n'),
    };
  return {
    ...base,
    status: 'failed',
    kind: i.pact === 'failed' ? 'pact' : 'reply-rules',
    message,
    detail: lines.join('\n'),
  };
}

export function verificationTestCases(report: VerificationReport): TestCaseList {
  const cases = report.interactions.map(interactionCase);
  if (report.stopped !== undefined) {
    const notRun = report.interactions.filter((i) => i.pact === 'not-run').length;
    const message = `run stopped by ${report.stopped} before ${notRun} of ${report.interactions.length} interactions ran`;
    cases.push({ classname: 'seller-system', name: message, seconds: 0, status: 'error', kind: 'stopped', message });
  }
  return withRun(cases, report.run);
}
