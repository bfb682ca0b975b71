import { markup, type Markup } from './html-text';
import { htmlPage, verdictBlock } from './page-shell';
import { lineChart } from './svg-line-chart';

// `verify --load --html`: latency percentiles and throughput against concurrency as inline SVG
// charts with the knee and the deadline marked, then rule breaks per step, and the rules that
// broke only under concurrency. Its input is this module's own view, so it can be drawn from
// any load report (`verify --load`'s JSON report maps onto it field for field).

export interface LoadStepView {
  concurrency: number;
  exchanges: number;
  throughput_per_s: number;
  latency_ms: { p50: number; p95: number; p99: number; max: number };
  timeouts: number;
  errors: number;
  /** Broken rules by rule name (an exchange counts once per rule it broke). */
  rule_breaks: Partial<Record<string, number>>;
  /** The step was cut short (e.g. SIGINT). */
  partial?: boolean;
}

export interface RuleOnlyUnderConcurrencyView {
  rule: string;
  /** The concurrency of the first step where it broke. */
  first_concurrency: number;
  /** Sends the first failing request alone. */
  curl: string;
  /** What the finding said, and where in the reply. */
  message?: string;
  path?: string;
  /** Replays the failing request together with those in flight beside it. */
  replay?: string;
}

export interface LoadReportView {
  seller_url: string;
  steps: LoadStepView[];
  /** The highest step with p99 under the deadline, no timeouts and no rule broken; null when none. */
  knee: number | null;
  deadline_ms: number;
  rules_only_under_concurrency: RuleOnlyUnderConcurrencyView[];
  /** --min-concurrency (absent or 0: no gate). */
  min_concurrency?: number;
  /** The run's verdict; when absent, the knee at or above min_concurrency. */
  ok?: boolean;
  stopped?: string;
}

/** Healthy as the knee counts it: p99 under the deadline, no timeouts, no rule broken. */
export const stepHealthy = (step: LoadStepView, deadlineMs: number): boolean =>
  step.latency_ms.p99 < deadlineMs && step.timeouts === 0 && Object.values(step.rule_breaks).every((n) => (n ?? 0) === 0);

const ms = (n: number) => (n >= 100 || Number.isInteger(n) ? String(Math.round(n)) : n.toFixed(1));

function verdictOf(view: LoadReportView): { ok: boolean; text: string } {
  const gated = view.min_concurrency !== undefined && view.min_concurrency > 0;
  const ok = view.ok ?? (view.knee !== null && view.knee >= (view.min_concurrency ?? 0));
  const knee = view.knee === null ? 'no knee: even the first step failed' : `knee at concurrency ${view.knee}`;
  const stopped = view.stopped !== undefined ? `STOPPED (${view.stopped}), partial: ` : '';
  const text = `${stopped}${ok ? 'PASSED' : 'FAILED'}: ${knee}${gated ? ` (--min-concurrency ${view.min_concurrency})` : ''}; deadline ${view.deadline_ms} ms`;
  return { ok: ok && view.stopped === undefined, text };
}

function charts(view: LoadReportView): Markup {
  const categories = view.steps.map((s) => s.concurrency);
  const knee = view.knee === null ? undefined : { category: view.knee, label: `knee: ${view.knee}`, mark: 'knee' };
  const common = { categories, xLabel: 'concurrency (requests in flight)', ...(knee !== undefined ? { vertical: knee } : {}) };
  const latency = lineChart({
    ...common,
    title: 'Latency against concurrency',
    yLabel: 'latency, ms',
    scale: 'auto',
    series: [
      { name: 'p50', colour: '#2da44e', values: view.steps.map((s) => s.latency_ms.p50) },
      { name: 'p95', colour: '#bf8700', values: view.steps.map((s) => s.latency_ms.p95) },
      { name: 'p99', colour: '#cf222e', values: view.steps.map((s) => s.latency_ms.p99) },
      { name: 'max', colour: '#57606a', values: view.steps.map((s) => s.latency_ms.max), dashed: true },
    ],
    horizontal: { value: view.deadline_ms, label: `deadline ${view.deadline_ms} ms`, mark: 'deadline' },
  });
  const throughput = lineChart({
    ...common,
    title: 'Throughput against concurrency',
    yLabel: 'exchanges per second',
    series: [{ name: 'throughput', colour: '#0969da', values: view.steps.map((s) => s.throughput_per_s) }],
  });
  return markup`<figure data-testid="latency-chart"><figcaption>Latency percentiles (p50, p95, p99, max)</figcaption>${latency}</figure>
<figure data-testid="throughput-chart"><figcaption>Throughput</figcaption>${throughput}</figure>`;
}

const FAIL_CELL = markup` style="background: var(--fail-bg); color: var(--fail); font-weight: 600"`;

function stepsTable(view: LoadReportView): Markup {
  const rules = [...new Set(view.steps.flatMap((s) => Object.keys(s.rule_breaks)))].sort();
  const rows = view.steps.map((s) => {
    const healthy = stepHealthy(s, view.deadline_ms);
    const isKnee = s.concurrency === view.knee;
    const breaks = rules.map((r) => {
      const n = s.rule_breaks[r] ?? 0;
      return markup`<td class="num"${n > 0 ? FAIL_CELL : ''}>${n}</td>`;
    });
    const flag = (bad: boolean) => (bad ? FAIL_CELL : '');
    const label = `${s.concurrency}${isKnee ? ' (knee)' : ''}${s.partial === true ? ' (partial)' : ''}`;
    const verdict = healthy ? markup`<span class="badge pass">healthy</span>` : markup`<span class="badge fail">unhealthy</span>`;
    return markup`<tr data-testid="step" data-concurrency="${s.concurrency}" data-healthy="${healthy}"${isKnee ? markup` style="outline: 2px solid #8250df"` : ''}><td class="num">${label}</td><td class="num">${
      s.exchanges
    }</td><td class="num">${s.throughput_per_s.toFixed(1)}</td><td class="num">${ms(s.latency_ms.p50)}</td><td class="num">${ms(s.latency_ms.p95)}</td><td class="num"${flag(
      s.latency_ms.p99 >= view.deadline_ms,
    )}>${ms(s.latency_ms.p99)}</td><td class="num">${ms(s.latency_ms.max)}</td><td class="num"${flag(s.timeouts > 0)}>${s.timeouts}</td><td class="num">${
      s.errors
    }</td>${breaks}<td>${verdict}</td></tr>`;
  });
  const ruleHeads = rules.map((r) => markup`<th class="num" data-testid="rule-column"><code>${r}</code></th>`);
  return markup`<table data-testid="steps"><thead><tr><th class="num">concurrency</th><th class="num">exchanges</th><th class="num">per s</th><th class="num">p50 ms</th><th class="num">p95 ms</th><th class="num">p99 ms</th><th class="num">max ms</th><th class="num">timeouts</th><th class="num">errors</th>${ruleHeads}<th></th></tr></thead><tbody>${rows}</tbody></table>
<p class="note">A step is healthy when its p99 is under the deadline (${view.deadline_ms} ms), nothing timed out and no rule broke; the knee is the highest step up to which every step is healthy.${
    rules.length > 0 ? ' The rule columns count the exchanges that broke each rule.' : ''
  }</p>`;
}

function underConcurrency(view: LoadReportView): Markup | string {
  if (view.rules_only_under_concurrency.length === 0) return '';
  const sections = view.rules_only_under_concurrency.map((r) => {
    const where = r.path !== undefined ? markup`<br><span class="where">at <code>${r.path}</code> of the reply</span>` : '';
    const finding = r.message !== undefined ? markup`<div class="finding">${r.message}${where}</div>` : '';
    const replay = r.replay !== undefined ? markup`<h3>Replay it with the requests that were in flight beside it</h3><pre>${r.replay}</pre>` : '';
    return markup`<details open data-testid="rule-under-concurrency" data-rule="${r.rule}"><summary><code>${r.rule}</code> — first broken at concurrency ${r.first_concurrency}</summary>${finding}<h3>The first failing request</h3><pre>${r.curl}</pre>${replay}</details>`;
  });
  return markup`<h2>Rules broken only under concurrency</h2>${sections}`;
}

export function renderLoadReportHtml(view: LoadReportView): string {
  const verdict = verdictOf(view);
  const body = markup`<h1>Load</h1>
<p class="meta">${view.seller_url} · ${view.steps.length} step${view.steps.length === 1 ? '' : 's'} · deadline ${view.deadline_ms} ms</p>
${verdictBlock(verdict.ok, verdict.text)}
<h2>Latency and throughput against concurrency</h2>
${view.steps.length > 0 ? charts(view) : markup`<p class="note">No step ran.</p>`}
<h2>Steps</h2>
${stepsTable(view)}
${underConcurrency(view)}`;
  return htmlPage({ title: `Load on ${view.seller_url}`, kind: 'load', body });
}
