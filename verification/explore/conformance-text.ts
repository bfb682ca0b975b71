import { valueText } from '../reports/report-as-text';
import type { Palette } from '../reports/palette';
import { identityLines } from '../reports/run-identity';
import type { ConformanceReport, ConformanceRow } from './conformance';
import { ALONE_TRIES } from './alone';
import type { ExploreProgress } from './run-exploration';
import { ANSWER_RULE } from './rule-coverage';

// The exploration for the terminal: each shrunk failure (rule, item id, path, expected,
// found, the curl command), then the table of operation × rule, then one verdict line.

export const percent = (score: number | null) =>
  score === null ? '—' : `${(Math.floor(score * 1000) / 10).toFixed(1)}%`;

export function progressText(p: ExploreProgress): string {
  const rate = p.elapsedMs > 0 ? Math.round((p.done * 1000) / p.elapsedMs) : 0;
  return `explore: ${p.done}/${p.total} exchanges, ${p.failing} failing, ${rate}/s`;
}

function statusOf(row: ConformanceRow, colours: Palette): string {
  if (row.score === null) return colours.dim('not exercised');
  return row.passed ? colours.pass(row.broken === 0 ? 'ok' : 'ok (above --min-score)') : colours.fail('BROKEN');
}

export function renderTable(rows: ConformanceRow[], colours: Palette): string {
  const head = ['operation', 'rule', 'exercised', 'broken', 'score', ''];
  const body = rows.map((r) => [
    r.operation,
    r.rule,
    String(r.exercised),
    String(r.broken),
    percent(r.score),
    statusOf(r, colours),
  ]);
  // Widths from the plain text: colour codes take no room on the screen.
  const plain = [
    head,
    ...rows.map((r) => [r.operation, r.rule, String(r.exercised), String(r.broken), percent(r.score), '']),
  ];
  const widths = head.map((_, i) => Math.max(...plain.map((line) => line[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i >= 2 && i <= 4 ? c.padStart(widths[i]) : i === 5 ? c : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return [line(head), ...body.map(line)].join('\n');
}

const of = (count: number | undefined, done: number, what: string) =>
  count === undefined ? what : `${count} of ${done} exchange${done === 1 ? '' : 's'} ${what}`;

/** Broken reply rules first (they fail whatever the score), then answers below --min-score: each with its count. */
export function failedBecause(broken: ConformanceRow[], gate: string, report?: ConformanceReport): string {
  if (broken.length === 0) return 'no exchange ran';
  const done = report?.runs.done ?? 0;
  const rules = broken.filter((r) => r.rule !== ANSWER_RULE);
  const answers = broken.filter((r) => r.rule === ANSWER_RULE);
  return [
    ...(rules.length > 0
      ? [
          `${of(report?.broke?.rules, done, rules.length === 1 ? 'broke a reply rule' : 'broke reply rules')} — ${rules.map((r) => `${r.operation} ${r.rule} ${percent(r.score)}`).join(', ')} (a broken reply rule fails the run whatever --min-score)`,
        ]
      : []),
    ...(answers.length > 0
      ? [
          `${of(report?.broke?.unanswered, done, 'went unanswered')}, below --min-score${gate} — ${answers.map((r) => `${r.operation} ${percent(r.score)}`).join(', ')}`,
        ]
      : []),
  ].join('; ');
}

/** The run's verdict in one line, the same in the text, HTML and CI forms: what failed, counted, said once. */
export function conformanceHeadline(report: ConformanceReport): {
  verdict: 'passed' | 'failed' | 'stopped';
  text: string;
} {
  const broken = report.rows.filter((r) => r.score !== null && !r.passed);
  const unexercised = report.rows.filter((r) => r.score === null).length;
  const gate = report.minScore < 1 ? ` (--min-score ${percent(report.minScore)})` : '';
  const limited =
    report.stopped === 'time limit' ? ` (time limit: ${report.runs.done} of ${report.runs.planned} exchanges ran)` : '';
  if (report.stopped !== undefined && limited === '')
    return {
      verdict: 'stopped',
      text: `STOPPED (${report.stopped}): ${report.runs.done} of ${report.runs.planned} exchanges ran; lowest score ${percent(report.lowestScore)}${gate}`,
    };
  if (report.ok)
    return {
      verdict: 'passed',
      text:
        `PASSED${limited}: ${report.runs.done} exchanges, lowest score ` +
        `${percent(report.lowestScore)}${gate}${unexercised > 0 ? `; ${unexercised} rule${unexercised === 1 ? '' : 's'} not exercised` : ''}`,
    };
  return { verdict: 'failed', text: `FAILED${limited}: ${failedBecause(broken, gate, report)}` };
}

export function renderConformance(report: ConformanceReport, colours: Palette): string {
  const out: string[] = [
    `Exploration of ${report.sellerUrl}`,
    ...(report.run !== undefined ? identityLines(report.run) : []),
    `  catalogue: ${report.catalogue}; seed ${report.seed}; ${report.runs.done} of ${report.runs.planned} exchanges, concurrency ${report.concurrency}, ${(report.elapsedMs / 1000).toFixed(1)} s`,
    '',
  ];
  if (report.failures.length > 0) {
    out.push('Failures (each shrunk to the smallest request still breaking the same rule)');
    for (const f of report.failures) {
      if (f.reproduces === 'only-under-concurrency') {
        out.push(
          `  ${colours.fail(f.rule)} — ${f.operation}: broken in ${f.count} exchange${f.count === 1 ? '' : 's'}; first at run ${f.index} (seed ${report.seed}), ONLY UNDER CONCURRENCY`,
          `    ${f.finding.message}   path: ${f.finding.path || '/'}`,
          `    sent alone ${ALONE_TRIES} times, the reply was correct every time (a lone curl would pass): not shrunk`,
          `    request: ${JSON.stringify(f.original.request)}`,
          `    ${f.companions?.length ?? 0} request(s) were in flight beside it; replay them together: ${f.replay ?? '(no replay file written)'}`,
          '',
        );
        continue;
      }
      const items = 'items' in f.shrunk.request ? f.shrunk.request.items.length : 0;
      out.push(
        `  ${colours.fail(f.rule)} — ${f.operation}: broken in ${f.count} exchange${f.count === 1 ? '' : 's'}; first at run ${f.index} (seed ${report.seed}), ` +
          `shrunk to ${items > 0 ? `${items} ${f.operation === 'place-order' ? 'line' : 'item'}${items === 1 ? '' : 's'}` : 'this request'} in ${f.shrinkTries} tries`,
        `    ${f.finding.message}`,
        `    item id: ${f.finding.id !== undefined ? JSON.stringify(f.finding.id) : '—'}   path: ${f.finding.path || '/'}`,
        // A timeout or a failed request has no values to compare: the message says it all.
        ...(f.finding.expected !== undefined || f.finding.found !== undefined
          ? [`    expected: ${valueText(f.finding.expected)}   found: ${valueText(f.finding.found)}`]
          : []),
        `    request: ${JSON.stringify(f.shrunk.request)}`,
        `    reproduce: ${f.curl}`,
        '',
      );
    }
  }
  out.push('Conformance (operation × rule)', renderTable(report.rows, colours), '');
  const headline = conformanceHeadline(report);
  out.push(headline.verdict === 'passed' ? colours.pass(headline.text) : colours.fail(headline.text));
  return `${out.join('\n')}\n`;
}
