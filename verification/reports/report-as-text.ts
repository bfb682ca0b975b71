import { PLAIN, type Palette } from './palette';
import {
  exampleValuesNote,
  interactionPassed,
  pendingFailure,
  type InteractionReport,
  type VerificationReport,
} from './verification-report';
import { changedSinceText } from '../verify/interaction-notes';
import { sideLabel } from '../compat/compat-report';
import { exchangeOutcomeText } from './exchange-outcome';
import type { PactMismatch } from '../verify/pact-results';
import { identityLines } from './run-identity';

// The report as a vendor reads it in a terminal: one block per interaction, then one per
// broken rule with every item id, JSON path, expected and found.

/** One wording for a value, and for its absence, in every report. */
export const valueText = (value: unknown): string =>
  value === undefined ? '(missing)' : typeof value === 'string' ? `'${value}'` : JSON.stringify(value);

const rulesVerdict = (i: InteractionReport): string =>
  i.rules === 'failed'
    ? `BROKEN: ${[...new Set([...(i.schemaErrors.length > 0 ? ['reply.schema'] : []), ...i.violations.map((v) => v.rule)])].join(', ')}`
    : i.rules;

/**
 * Pact's mismatch with the value the seller sent beside the one expected, when Pact gives them;
 * the kit's own words alone where the pact's value is only an example (they say both).
 */
export function pactMismatchText(m: PactMismatch): string {
  if (m.exampleOnly === true) return m.message;
  const values =
    m.actual !== undefined ? ` (expected ${valueText(m.expected)}, your system sent ${valueText(m.actual)})` : '';
  return `${m.message}${values}`;
}

const exchangeNote = (i: InteractionReport): string =>
  i.exchange === undefined ? '' : `   (${exchangeOutcomeText(i.exchange)})`;

/** The label of an interaction that was not judged: stopped first, or declared not offered. */
const NOT_OFFERED_LABEL = 'NOT OFFERED (optional)';

/** PASS or FAIL, and PENDING beside it for an interaction that cannot fail the run (a pending failure is not red). */
function verdictLabel(i: InteractionReport, palette: Palette): string {
  const ok = interactionPassed(i);
  const verdict = ok ? palette.pass('PASS') : i.pending === true ? 'FAIL' : palette.fail('FAIL');
  return i.pending === true ? `${verdict} ${palette.dim('PENDING')}` : verdict;
}

/** `[changed since 3.2.0: …]` after an interaction that changed since `--since`. */
const changeNote = (i: InteractionReport, palette: Palette): string =>
  i.changedSince === undefined ? '' : ` ${palette.dim(`[${changedSinceText(i.changedSince)}]`)}`;

/** The line printed as each interaction finishes: both verdicts, and what stopped a check. */
export function progressLine(i: InteractionReport, index: number, total: number, palette: Palette = PLAIN): string {
  if (i.pact === 'not-offered')
    return `[${index}/${total}] ${palette.dim(NOT_OFFERED_LABEL)} ${i.description} — ${i.notOffered ?? ''}`;
  const failed = (text: string) => (i.pending === true ? text : palette.fail(text));
  const verdicts = `pact: ${i.pact === 'failed' ? failed('FAILED') : i.pact} · reply rules: ${i.rules === 'failed' ? failed(rulesVerdict(i)) : i.rules}`;
  const problem = i.problems[0] !== undefined ? ` — ${i.problems[0]}` : '';
  return `[${index}/${total}] ${verdictLabel(i, palette)} ${i.description}${changeNote(i, palette)} — ${verdicts}${problem}`;
}

/** The request of a failed interaction, to send again once its states are set up. */
function curlLines(i: InteractionReport): string[] {
  if (i.curl === undefined) return [];
  const given = i.states.length > 0 ? ` (after setting up ${i.states.map((s) => `'${s}'`).join(', ')}` : ' (';
  return [`        request${given}; add your --header values): ${i.curl}`];
}

export function renderReport(report: VerificationReport, palette: Palette = PLAIN): string {
  const lines: string[] = [];
  lines.push(`Seller verification of ${report.sellerUrl}`);
  if (report.run !== undefined) lines.push(...identityLines(report.run));
  if (report.fatal !== undefined) lines.push('', `Pact could not run: ${report.fatal}`);
  if (report.since !== undefined) {
    const marked = report.interactions.filter((i) => i.changedSince !== undefined).length;
    lines.push(
      '',
      `Since ${sideLabel(report.since.base)}: ${marked} interaction(s) new or changed, marked [… since …] below`,
    );
  }
  lines.push('', 'Interactions');
  for (const i of report.interactions) {
    const label =
      i.pact === 'not-offered'
        ? palette.dim(NOT_OFFERED_LABEL)
        : i.pact === 'not-run'
          ? palette.dim('NOT RUN')
          : verdictLabel(i, palette);
    lines.push(`  ${label}  ${i.description}${changeNote(i, palette)}`);
    if (i.states.length > 0) lines.push(`        given ${i.states.join(', ')}`);
    if (i.pending === true) lines.push(`        pending: ${i.pendingReason ?? ''} — reported, never failing the run`);
    if (i.pact === 'not-offered') lines.push(`        ${i.notOffered ?? ''}`);
    if (i.pact === 'not-run' || i.pact === 'not-offered') continue;
    lines.push(`        pact: ${i.pact}   reply rules: ${rulesVerdict(i)}${exchangeNote(i)}`);
    for (const m of i.pactMismatches)
      lines.push(`        pact mismatch${m.path !== undefined ? ` at ${m.path}` : ''}: ${pactMismatchText(m)}`);
    for (const e of i.schemaErrors) lines.push(`        reply.schema at ${e.path || '/'}: ${e.message}`);
    for (const v of i.violations)
      lines.push(`        ${v.rule}${v.id !== undefined ? ` [id ${v.id}]` : ''} at ${v.path}: ${v.message}`);
    for (const p of i.problems) lines.push(`        problem: ${p}`);
    const examples = exampleValuesNote(i);
    if (examples !== undefined) lines.push(`        example values: ${examples}`);
    lines.push(...curlLines(i));
  }
  if (report.rules.length > 0) {
    lines.push('', 'Broken rules');
    for (const rule of report.rules) {
      lines.push(`  ${rule.rule} — ${rule.description} (${rule.breaches.length})`);
      for (const b of rule.breaches) {
        lines.push(`    - ${b.interaction}`);
        lines.push(`      item id: ${b.id ?? '—'}   path: ${b.path}`);
        if (b.expected !== undefined || b.found !== undefined)
          lines.push(`      expected: ${valueText(b.expected)}   found: ${valueText(b.found)}`);
        lines.push(`      ${b.message}`);
      }
    }
  }
  // No state source and most interactions failed: what is missing, said before the verdict.
  if (report.noStateSource !== undefined) lines.push('', report.noStateSource.text);
  lines.push('', summaryLine(report, palette));
  return `${lines.join('\n')}\n`;
}

export function summaryLine(report: VerificationReport, palette: Palette = PLAIN): string {
  const total = report.interactions.length;
  const ran = report.interactions.filter((i) => i.pact !== 'not-run' && i.pact !== 'not-offered');
  const passedCount = ran.filter(interactionPassed).length;
  const declared = report.interactions.filter((i) => i.pact === 'not-offered').map((i) => `'${i.description}'`);
  const notOffered = declared.length > 0 ? `, ${declared.length} ${NOT_OFFERED_LABEL}: ${declared.join(', ')}` : '';
  const broken = report.rules.length > 0 ? `; broken rules: ${report.rules.map((r) => r.rule).join(', ')}` : '';
  const pendingFailed = report.interactions.filter(pendingFailure).map((i) => `'${i.description}'`);
  const pending =
    pendingFailed.length > 0
      ? `; ${pendingFailed.length} PENDING failed (not failing the run): ${pendingFailed.join(', ')}`
      : '';
  if (report.stopped !== undefined) {
    const notRun = report.interactions.filter((i) => i.pact === 'not-run').map((i) => `'${i.description}'`);
    return `${palette.fail(`STOPPED by ${report.stopped}`)}: ${ran.length} of ${total} interactions ran, ${passedCount} passed${notOffered}${pending}${broken}${notRun.length > 0 ? `; not run: ${notRun.join(', ')}` : ''}`;
  }
  if (report.ok)
    return `${palette.pass('PASSED')}: ${passedCount} of ${total} interactions passed${notOffered}${pending}${broken}`;
  if (report.fatal !== undefined)
    return `${palette.fail('FAILED')}: Pact could not run; ${ran.length} of ${total} interactions ran${broken}`;
  const failedCount = ran.filter((i) => !interactionPassed(i) && !pendingFailure(i)).length;
  const counted =
    failedCount > 0
      ? `${failedCount} of ${total} interactions failed, ${passedCount} passed`
      : `none of ${total} interactions passed`;
  return `${palette.fail('FAILED')}: ${counted}${notOffered}${pending}${broken}`;
}
