import { markup, type Markup } from './html-text';
import { kneeLabel, modelWords, sloChart } from './load-html-words';
import type { LoadReportView } from './load-view';
import { lineChart, type HorizontalMark } from './svg-line-chart';

// The load page's two charts against the level: latency percentiles with the deadline and the
// latency SLOs, throughput with the rate SLOs; the knee on both, and the announced levels that
// never ran greyed on the x axis so a reader sees the ramp was cut.

const DEADLINE_COLOUR = '#cf222e';
const SLO_KEPT = '#1a7f37';
const SLO_BREACHED = '#bc4c00';

function sloMarks(view: LoadReportView, chart: 'latency' | 'throughput'): HorizontalMark[] {
  return view.slo
    .filter((s) => sloChart(s.metric) === chart)
    .map((s) => ({
      value: s.value,
      label: s.expression,
      mark: 'slo',
      colour: s.breached ? SLO_BREACHED : SLO_KEPT,
      dash: '2 3',
    }));
}

export function loadCharts(view: LoadReportView): Markup {
  const words = modelWords(view.model);
  // Announced levels that never ran come after those that did, with no values.
  const categories = [...view.steps.map((s) => s.level), ...view.not_run];
  const none = view.not_run.map(() => null);
  const knee = kneeLabel(view);
  const common = {
    categories,
    xLabel: words.axis,
    ...(knee !== null && view.knee !== null ? { vertical: { category: view.knee, label: knee, mark: 'knee' } } : {}),
    ...(view.not_run.length > 0 ? { muted: { categories: view.not_run, note: 'not run' } } : {}),
  };
  const latency = lineChart({
    ...common,
    title: `Latency against ${words.against}`,
    yLabel: 'latency, ms',
    scale: 'auto',
    series: [
      { name: 'p50', colour: '#2da44e', values: [...view.steps.map((s) => s.latency_ms.p50), ...none] },
      { name: 'p90', colour: '#1b7c83', values: [...view.steps.map((s) => s.latency_ms.p90), ...none] },
      { name: 'p95', colour: '#bf8700', values: [...view.steps.map((s) => s.latency_ms.p95), ...none] },
      { name: 'p99', colour: '#cf222e', values: [...view.steps.map((s) => s.latency_ms.p99), ...none] },
      { name: 'max', colour: '#57606a', values: [...view.steps.map((s) => s.latency_ms.max), ...none], dashed: true },
    ],
    horizontal: [
      {
        value: view.deadline_ms,
        label: `deadline ${view.deadline_ms} ms`,
        mark: 'deadline',
        colour: DEADLINE_COLOUR,
        dash: '6 4',
      },
      ...sloMarks(view, 'latency'),
    ],
  });
  const throughput = lineChart({
    ...common,
    title: `Throughput against ${words.against}`,
    yLabel: 'exchanges per second',
    series: [
      { name: 'throughput', colour: '#0969da', values: [...view.steps.map((s) => s.throughput_per_s), ...none] },
    ],
    horizontal: sloMarks(view, 'throughput'),
  });
  return markup`<figure data-testid="latency-chart"><figcaption>Latency percentiles (p50, p90, p95, p99, max)</figcaption>${latency}</figure>
<figure data-testid="throughput-chart"><figcaption>Throughput</figcaption>${throughput}</figure>`;
}
