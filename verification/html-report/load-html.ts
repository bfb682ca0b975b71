import { markup, type Markup } from './html-text';
import { loadCharts } from './load-html-charts';
import { rulesBroken } from './load-html-rules';
import { stepsTable } from './load-html-steps';
import { modelWords, sloChart } from './load-html-words';
import type { LoadReportView } from './load-view';
import { badge, htmlPage, runIdentityBlock } from './page-shell';

// `verify --load --html`: the verdict as the run gave it, the SLOs, warnings and a ramp cut
// short; latency percentiles and throughput against the level (concurrency, or the arrival
// rate in the open model) as inline SVG charts with the knee, the deadline and the SLOs marked;
// the steps; and every reply rule broken. The run decides everything; the page only shows it.
// Its input is its own view (load-view.ts), so it can be drawn from any load report.

export type { LoadReportView, LoadStepView } from './load-view';

/** The verdict said once: the sentence's own PASS or FAIL is the outcome, the rest follows it. */
function verdictOf(view: LoadReportView): Markup {
  const colon = view.verdict.indexOf(': ');
  const outcome = colon < 0 ? (view.ok ? 'PASS' : 'FAIL') : view.verdict.slice(0, colon);
  const rest = colon < 0 ? view.verdict : view.verdict.slice(colon + 2);
  return markup`<p class="verdict ${view.ok ? 'pass' : 'fail'}" data-testid="verdict-block"><span data-testid="verdict"><span data-testid="outcome">${outcome}</span>: ${rest}</span></p>`;
}

function warningsOf(view: LoadReportView): Markup | string {
  const cut =
    view.not_run.length > 0 || view.cut_short !== undefined
      ? markup`<li data-testid="cut-short">The ramp was cut short${view.cut_short !== undefined ? markup`: ${view.cut_short}` : '.'}${
          view.not_run.length > 0
            ? markup` Not run: ${view.not_run.map((l) => modelWords(view.model).level(l)).join(', ')}.`
            : ''
        }</li>`
      : '';
  const items = view.warnings.map((w) => markup`<li data-testid="warning">${w}</li>`);
  if (cut === '' && items.length === 0) return '';
  return markup`<ul data-testid="warnings" style="border-left: 3px solid #bf8700; background: #fff8c5; padding: 6px 10px 6px 28px; margin: 8px 0">${cut}${items}</ul>`;
}

/** Hints from the figures that judge nothing: each as the text report says it. */
function notesOf(view: LoadReportView): Markup | string {
  const notes = view.notes ?? [];
  if (notes.length === 0) return '';
  return markup`<ul data-testid="notes" style="border-left: 3px solid #0969da; background: #ddf4ff; padding: 6px 10px 6px 28px; margin: 8px 0">${notes.map(
    (n) => markup`<li data-testid="note">note: ${n}</li>`,
  )}</ul>`;
}

function slosOf(view: LoadReportView): Markup | string {
  if (view.slo.length === 0) return '';
  const rows = view.slo.map((s) => {
    const chart = sloChart(s.metric);
    const drawn = chart === undefined ? 'listed only' : `${chart} chart`;
    return markup`<tr data-testid="slo" data-breached="${s.breached}"><td><code>${s.expression}</code></td><td>${drawn}</td><td>${
      s.breached ? badge('fail', 'breached') : badge('pass', 'kept')
    }</td></tr>`;
  });
  return markup`<h2>SLOs</h2><table data-testid="slos"><thead><tr><th>SLO</th><th>drawn on</th><th>result</th></tr></thead><tbody>${rows}</tbody></table>`;
}

export function renderLoadReportHtml(view: LoadReportView): string {
  const words = modelWords(view.model);
  const ran = `${view.steps.length} step${view.steps.length === 1 ? '' : 's'} run${view.not_run.length > 0 ? ` of ${view.steps.length + view.not_run.length}` : ''}`;
  const stopped = view.stopped !== undefined ? ` · stopped (${view.stopped})` : '';
  const body = markup`<h1>Load</h1>
<p class="meta">${view.seller_url} · ${words.name} · ${ran} · deadline ${view.deadline_ms} ms${stopped}</p>
${runIdentityBlock(view.run)}
${verdictOf(view)}
${warningsOf(view)}
${notesOf(view)}
${slosOf(view)}
<h2>Latency and throughput against ${words.against}</h2>
${view.steps.length > 0 ? loadCharts(view) : markup`<p class="note">No step ran.</p>`}
<h2>Steps</h2>
${stepsTable(view)}
${rulesBroken(view)}`;
  return htmlPage({ title: `Load on ${view.seller_url}`, kind: 'load', body });
}
