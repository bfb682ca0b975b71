import { badge } from './page-shell';
import { markup, type Markup } from './html-text';
import { modelWords, ms } from './load-html-words';
import type { LoadReportView, LoadStepView } from './load-view';

// The steps table: one row per step run (its figures, the exchanges that broke each rule, its
// correctness and its capacity as the run judged them, the SLOs it breached), then one greyed
// row per level announced but never run. Cells that count against a step are painted.

const FAIL_CELL = markup` style="background: var(--fail-bg); color: var(--fail); font-weight: 600"`;
const flag = (bad: boolean) => (bad ? FAIL_CELL : '');
const num = (value: string | number, bad = false) => markup`<td class="num"${flag(bad)}>${value}</td>`;

function p99Cell(s: LoadStepView, deadlineMs: number): Markup {
  const co = s.coordinated_omission;
  const corrected =
    co === undefined
      ? ''
      : markup`<br><span class="note" data-testid="corrected-p99" title="coordinated omission suspected: the p99 had requests kept arriving">≈ ${ms(co.corrected_p99_ms)} corrected</span>`;
  return markup`<td class="num"${flag(s.latency_ms.p99 >= deadlineMs)}>${ms(s.latency_ms.p99)}${corrected}</td>`;
}

function stepRow(view: LoadReportView, s: LoadStepView, rules: string[]): Markup {
  const open = view.model === 'open';
  const isKnee = s.level === view.knee;
  const label = `${s.level}${isKnee ? (view.knee_is_lower_bound ? ' (knee, at least)' : ' (knee)') : ''}${s.partial === true ? ' (partial)' : ''}`;
  const breaks = rules.map((r) => num(s.rule_breaks[r] ?? 0, (s.rule_breaks[r] ?? 0) > 0));
  const schedule = s.schedule_kept === undefined ? '' : s.schedule_kept ? 'kept' : 'not kept';
  const openCells = open
    ? [num(s.dropped ?? 0, (s.dropped ?? 0) > 0), markup`<td${flag(s.schedule_kept === false)}>${schedule}</td>`]
    : [];
  const breaches = (s.slo_breaches ?? []).map((e) => markup`<code data-testid="slo-breach">${e}</code> `);
  return markup`<tr data-testid="step" data-level="${s.level}" data-healthy="${s.healthy}" data-correct="${s.correct}"${
    isKnee ? markup` style="outline: 2px solid #8250df"` : ''
  }>${num(label)}${num(s.exchanges)}${num(s.throughput_per_s.toFixed(1))}${num(ms(s.latency_ms.p50))}${num(ms(s.latency_ms.p90))}${num(
    ms(s.latency_ms.p95),
  )}${p99Cell(s, view.deadline_ms)}${num(ms(s.latency_ms.max))}${num(s.timeouts, s.timeouts > 0)}${num(s.errors, s.errors > 0)}${openCells}${breaks}<td>${
    s.correct ? badge('pass', 'correct') : badge('fail', 'rules broken')
  }</td><td>${s.healthy ? badge('pass', 'healthy') : badge('fail', 'unhealthy')}</td><td${flag(breaches.length > 0)}>${breaches}</td></tr>`;
}

export function stepsTable(view: LoadReportView): Markup {
  const words = modelWords(view.model);
  const open = view.model === 'open';
  const rules = [...new Set(view.steps.flatMap((s) => Object.keys(s.rule_breaks)))].sort();
  const heads = [
    words.column,
    'exchanges',
    'per s',
    'p50 ms',
    'p90 ms',
    'p95 ms',
    'p99 ms',
    'max ms',
    'timeouts',
    'errors',
    ...(open ? ['dropped'] : []),
  ].map((h) => markup`<th class="num">${h}</th>`);
  const ruleHeads = rules.map((r) => markup`<th class="num" data-testid="rule-column"><code>${r}</code></th>`);
  const columns = heads.length + (open ? 1 : 0) + rules.length + 3;
  const notRun = view.not_run.map(
    (level) =>
      markup`<tr data-testid="step-not-run" data-level="${level}" style="color: var(--dim)"><td class="num">${level}</td><td colspan="${columns - 1}">not run${
        view.cut_short !== undefined ? markup` — ${view.cut_short}` : ''
      }</td></tr>`,
  );
  const schedule = open ? ' (and, in the open model, the schedule was kept)' : '';
  // Many rule columns make the table wider than the page: it scrolls on its own.
  return markup`<div style="overflow-x: auto"><table data-testid="steps"><thead><tr>${heads}${open ? markup`<th>schedule</th>` : ''}${ruleHeads}<th>correctness</th><th>capacity</th><th>SLOs breached</th></tr></thead><tbody>${view.steps.map(
    (s) => stepRow(view, s, rules),
  )}${notRun}</tbody></table></div>
<p class="note">Correct: no reply rule or schema broke at the step; any broken rule fails the run whatever the knee. Healthy: the p99 under the deadline (${
    view.deadline_ms
  } ms), nothing timed out and nothing errored${schedule}; the knee is the highest ${words.against} up to which every step is healthy.${
    rules.length > 0 ? ' The rule columns count the exchanges that broke each rule.' : ''
  }</p>`;
}
