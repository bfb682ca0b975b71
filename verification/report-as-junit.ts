import { exampleValuesNote, interactionPassed, pendingFailure, type VerificationReport } from './verification-report';
import { changedSinceText } from './interaction-marks';
import { pactMismatchText, valueText } from './report-as-text';
import { exchangeOutcomeText } from './exchange-words';

// JUnit XML for CI: one test case per interaction; a failure lists Pact's mismatches and
// the broken reply rules with item id, path, expected and found.

export const escapeXml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');

/**
 * The test case a stopped run adds, as an error: a CI job must never read a cancelled run
 * (every case skipped, no failure) as green. `before` says what had not run.
 */
export const stoppedCase = (signal: string, before: string, classname: string): string =>
  `    <testcase classname="${escapeXml(classname)}" name="${escapeXml(`run stopped by ${signal} before ${before}`)}" time="0">\n` +
  `      <error type="stopped" message="${escapeXml(`run stopped by ${signal} before ${before}`)}"/>\n    </testcase>`;

export function renderJunit(report: VerificationReport, suiteName = 'seller-system verification'): string {
  const cases = report.interactions.map((i) => {
    const lines: string[] = [];
    for (const m of i.pactMismatches) lines.push(`pact${m.path !== undefined ? ` ${m.path}` : ''}: ${pactMismatchText(m)}`);
    for (const e of i.schemaErrors) lines.push(`reply.schema ${e.path || '/'}: ${e.message}`);
    for (const v of i.violations) {
      lines.push(
        `${v.rule}${v.id !== undefined ? ` [id ${v.id}]` : ''} ${v.path}: ` +
          `${v.message}${v.expected !== undefined || v.found !== undefined ? ` (expected ${valueText(v.expected)}, found ${valueText(v.found)})` : ''}`,
      );
    }
    for (const p of i.problems) lines.push(`problem: ${p}`);
    const examples = exampleValuesNote(i);
    if (examples !== undefined && lines.length > 0) lines.push(`example values: ${examples}`);
    if (i.exchange?.noAnswerWithinMs !== undefined) lines.push(`exchange: ${exchangeOutcomeText(i.exchange)}`);
    const time = ((i.exchange?.elapsedMs ?? 0) / 1000).toFixed(3);
    const open = `    <testcase classname="${escapeXml(i.states.join(' + ') || 'seller-system')}" name="${escapeXml(i.description)}" time="${time}"`;
    if (i.pact === 'not-offered') return `${open}>\n      <skipped message="${escapeXml(i.notOffered ?? 'NOT OFFERED (optional)')}"/>\n    </testcase>`;
    if (i.pact === 'not-run') return `${open}>\n      <skipped message="not run: the verification was stopped first"/>\n    </testcase>`;
    // What changed since --since travels as the case's output: every CI shows it, none counts it.
    const changed = i.changedSince === undefined ? '' : `\n      <system-out>${escapeXml(changedSinceText(i.changedSince))}</system-out>`;
    if (lines.length === 0) return changed === '' ? `${open}/>` : `${open}>${changed}\n    </testcase>`;
    const rules = [...new Set(i.violations.map((v) => v.rule).concat(i.schemaErrors.length > 0 ? ['reply.schema'] : []))];
    const message = [
      i.pact === 'failed' ? 'pact failed' : '',
      rules.length > 0 ? `broken rules: ${rules.join(', ')}` : '',
      i.problems.length > 0 ? 'problems' : '',
    ]
      .filter(Boolean)
      .join('; ');
    // A pending failure is skipped, not failed: CI stays green, and the failure is still there to read.
    if (pendingFailure(i))
      return `${open}>\n      <skipped message="${escapeXml(`pending: ${message} — ${i.pendingReason ?? 'pending'}, never fails the run`)}">${escapeXml(lines.join('\n'))}</skipped>${changed}\n    </testcase>`;
    return `${open}>\n      <failure message="${escapeXml(message)}" type="${i.pact === 'failed' ? 'pact' : 'reply-rules'}">${escapeXml(lines.join('\n'))}</failure>${changed}\n    </testcase>`;
  });
  const failures = report.interactions.filter((i) => i.pact !== 'not-run' && i.pact !== 'not-offered' && !interactionPassed(i) && !pendingFailure(i)).length;
  const notRun = report.interactions.filter((i) => i.pact === 'not-run').length;
  const skipped = notRun + report.interactions.filter((i) => i.pact === 'not-offered' || pendingFailure(i)).length;
  if (report.stopped !== undefined) {
    cases.push(stoppedCase(report.stopped, `${notRun} of ${report.interactions.length} interactions ran`, 'seller-system'));
  }
  const tests = cases.length;
  const errors = (report.fatal !== undefined ? 1 : 0) + (report.stopped !== undefined ? 1 : 0);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${escapeXml(suiteName)}" tests="${tests}" failures="${failures}" errors="${errors}">`,
    `  <testsuite name="${escapeXml(suiteName)}" tests="${tests}" failures="${failures}" errors="${errors}" skipped="${skipped}">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
