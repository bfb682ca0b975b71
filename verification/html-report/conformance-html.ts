import type { ForwardedOperation } from '../../contracts/reply-check';
import { valueText } from '../reports/report-as-text';
import type { ConformanceReport } from '../explore/conformance';
import { conformanceHeadline, percent } from '../explore/conformance-text';
import { ANSWER_RULE } from '../explore/rule-coverage';
import type { ExploreFailure } from '../explore/run-exploration';
import { markup, type Markup } from './html-text';
import { jsonView } from './json-view';
import { htmlPage, runIdentityBlock, verdictBlock } from './page-shell';

// `verify --explore --html`: the operation × rule matrix, each cell coloured by its score
// (green when kept every time, through orange to red as it is broken more often, grey when
// never exercised), and each shrunk failure with its request and curl command.

export type ScoreBand = 'kept' | 'passing' | 'broken' | 'not-exercised';

/** A cell's band and background: green when kept, yellow-green at or above --min-score, orange→red below it. */
export function scoreColour(score: number | null, minScore: number): { band: ScoreBand; background: string } {
  if (score === null) return { band: 'not-exercised', background: '#eaeef2' };
  if (score >= 1) return { band: 'kept', background: 'hsl(130, 55%, 78%)' };
  if (score >= minScore) return { band: 'passing', background: 'hsl(80, 65%, 78%)' };
  // 0 → red (hue 0), just below the gate → orange (hue 40).
  const hue = Math.round(40 * Math.max(0, Math.min(1, score / minScore)));
  return { band: 'broken', background: `hsl(${hue}, 85%, ${70 + Math.round(hue / 4)}%)` };
}

const anchorOf = (operation: string, rule: string) => `failure-${operation}-${rule}`.replace(/[^\w-]/g, '-');

function matrix(report: ConformanceReport): Markup {
  const operations = [...new Set(report.rows.map((r) => r.operation))];
  const rules = [...new Set(report.rows.map((r) => r.rule))];
  const rowOf = new Map(report.rows.map((r) => [`${r.operation} ${r.rule}`, r]));
  const failed = new Set(report.failures.map((f) => `${f.operation} ${f.rule}`));
  const meaningOf = new Map(report.rows.map((r) => [r.rule, r.meaning]));
  const cell = (operation: ForwardedOperation, rule: string): Markup => {
    const row = rowOf.get(`${operation} ${rule}`);
    if (row === undefined) return markup`<td class="n-a" data-band="not-applicable"></td>`;
    // --min-score tolerates unanswered exchanges only: a reply rule's gate is always 100%.
    const { band, background } = scoreColour(row.score, row.rule === ANSWER_RULE ? report.minScore : 1);
    const text = row.score === null ? 'not exercised' : percent(row.score);
    const title = `${operation} × ${rule}: exercised ${row.exercised}, broken ${row.broken}`;
    const inner = failed.has(`${operation} ${rule}`)
      ? markup`<a href="#${anchorOf(operation, rule)}">${text}</a>`
      : text;
    return markup`<td class="num" style="background: ${background}" data-testid="score" data-operation="${operation}" data-rule="${rule}" data-band="${band}" title="${title}">${inner}<br><span class="note">${row.broken}/${row.exercised}</span></td>`;
  };
  const head = operations.map((o) => markup`<th class="num">${o}</th>`);
  const body = rules.map(
    (rule) =>
      markup`<tr><th title="${meaningOf.get(rule) ?? ''}"><code>${rule}</code></th>${operations.map((o) => cell(o, rule))}</tr>`,
  );
  return markup`<table data-testid="conformance-matrix"><thead><tr><th>rule</th>${head}</tr></thead><tbody>${body}</tbody></table>
<p class="note">Each cell: the share of the exchanges that exercised the rule and kept it (broken/exercised below). Green: kept every time; yellow-green: ${ANSWER_RULE} missed at times but at or above --min-score (${percent(
    report.minScore,
  )}); orange to red: a reply rule broken (it fails the run whatever the score), or answers below --min-score; grey: never exercised; blank: the rule does not apply to the operation.</p>`;
}

function failure(f: ExploreFailure, seed: number): Markup {
  const items = 'items' in f.shrunk.request ? f.shrunk.request.items.length : 0;
  const size =
    items > 0 ? `${items} ${f.operation === 'place-order' ? 'line' : 'item'}${items === 1 ? '' : 's'}` : 'this request';
  const summary = `${f.operation}: broken in ${f.count} exchange${f.count === 1 ? '' : 's'}`;
  return markup`<details open id="${anchorOf(f.operation, f.rule)}" data-testid="failure" data-rule="${f.rule}"><summary><code>${f.rule}</code> — ${summary}</summary>
<p class="note">First at run ${f.index} (seed ${seed}), shrunk to ${size} in ${f.shrinkTries} tries.</p>
<div class="finding" data-rule="${f.rule}">${f.finding.message}<br><span class="where">item id <code>${f.finding.id ?? '—'}</code> at <code>${
    f.finding.path || '/'
  }</code> of the reply</span><br>expected <code>${valueText(f.finding.expected)}</code> found <code>${valueText(f.finding.found)}</code></div>
<h3>Shrunk request</h3>${jsonView(f.shrunk.request)}
<h3>Reproduce</h3><pre data-testid="curl">${f.curl}</pre>
<details data-testid="original-request"><summary>The first failing request, as generated (run ${f.index})</summary>${jsonView(f.original.request)}</details>
</details>`;
}

export function renderConformanceHtml(report: ConformanceReport): string {
  const failures =
    report.failures.length > 0
      ? markup`<h2>Failures</h2><p class="note">Each shrunk to the smallest request still breaking the same rule.</p>${report.failures.map((f) => failure(f, report.seed))}`
      : '';
  const body = markup`<h1>Exploration</h1>
<p class="meta">${report.sellerUrl} · catalogue ${report.catalogue} · seed ${report.seed} (replay: --seed ${report.seed}) · concurrency ${report.concurrency} · ${(
    report.elapsedMs / 1000
  ).toFixed(1)} s</p>
${runIdentityBlock(report.run)}
${verdictBlock(report.ok, conformanceHeadline(report).text)}
<h2>Conformance (operation × rule)</h2>
${matrix(report)}
${failures}`;
  return htmlPage({ title: `Exploration of ${report.sellerUrl}`, kind: 'exploration', body });
}
