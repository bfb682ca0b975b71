import { markup, type Markup } from './html-text';

// A small line chart drawn as inline SVG (no chart library, nothing loaded): categories along
// x (the concurrency steps, evenly spaced whatever their values), a linear y axis from 0 with
// round ticks (or a log axis, when values span decades: a 30 s deadline must not flatten 50 ms
// latencies), one polyline per series, and marks: a horizontal line (a deadline) and a vertical
// line at one category (the knee).

export interface ChartSeries {
  name: string;
  colour: string;
  /** One value per category; null leaves a gap. */
  values: (number | null)[];
  dashed?: boolean;
}

export interface LineChartOptions {
  /** Names the chart for screen readers and tests. */
  title: string;
  categories: number[];
  series: ChartSeries[];
  xLabel: string;
  yLabel: string;
  /** A horizontal line, e.g. the deadline; `mark` names it (data-mark). */
  horizontal?: { value: number; label: string; mark: string };
  /** A vertical line at one category, e.g. the knee. */
  vertical?: { category: number; label: string; mark: string };
  /** 'auto': log when the values (and the horizontal mark) span more than SPAN_FOR_LOG. Default linear. */
  scale?: 'linear' | 'log' | 'auto';
  width?: number;
  height?: number;
}

/** Beyond this ratio of largest to smallest positive value, 'auto' draws a log axis. */
export const SPAN_FOR_LOG = 30;

export function chooseScale(values: number[]): 'linear' | 'log' {
  const positive = values.filter((v) => v > 0 && Number.isFinite(v));
  return positive.length > 0 && Math.max(...positive) / Math.min(...positive) > SPAN_FOR_LOG ? 'log' : 'linear';
}

/** Ticks of a log axis from 10^lo to 10^hi: 1, 2, 5 of each decade when there are few decades, else powers of ten. */
export function logTicks(lo: number, hi: number): number[] {
  const ticks: number[] = [];
  for (let power = lo; power <= hi; power++)
    for (const m of hi - lo <= 3 ? [1, 2, 5] : [1]) {
      const v = m * 10 ** power;
      if (v <= 10 ** hi * 1.0001) ticks.push(Number(v.toPrecision(12)));
    }
  return ticks;
}

/** Round tick step for a 0..max axis with about five ticks. */
export function tickStep(max: number): number {
  if (!(max > 0)) return 1;
  const rough = max / 5;
  const power = 10 ** Math.floor(Math.log10(rough));
  return [1, 2, 5, 10].map((m) => m * power).find((s) => s >= rough) ?? 10 * power;
}

const round = (n: number) => Math.round(n * 10) / 10;
const tickText = (n: number) => (Number.isInteger(n) ? String(n) : String(round(n * 10) / 10));

export function lineChart(o: LineChartOptions): Markup {
  const width = o.width ?? 640;
  const height = o.height ?? 300;
  const margin = { left: 64, right: 140, top: 16, bottom: 44 };
  const plotW = width - margin.left - margin.right;
  const plotH = height - margin.top - margin.bottom;
  const values = o.series.flatMap((s) => s.values.filter((v): v is number => v !== null && Number.isFinite(v)));
  const marked = o.horizontal !== undefined ? [...values, o.horizontal.value] : values;
  const scale = o.scale === 'auto' ? chooseScale(marked) : (o.scale ?? 'linear');
  const top = Math.max(...marked, 0);
  const n = o.categories.length;
  const x = (i: number) => round(margin.left + (n <= 1 ? plotW / 2 : (i * plotW) / (n - 1)));
  const right = margin.left + plotW;
  const bottom = margin.top + plotH;
  let y: (v: number) => number;
  let tickValues: number[];
  if (scale === 'log') {
    const positive = marked.filter((v) => v > 0);
    const lo = Math.floor(Math.log10(Math.min(...positive)));
    const hi = Math.ceil(Math.log10(top));
    // Zero has no place on a log axis: it sits on the bottom line.
    y = (v: number) => round(bottom - ((Math.log10(Math.max(v, 10 ** lo)) - lo) / Math.max(1, hi - lo)) * plotH);
    tickValues = logTicks(lo, Math.max(hi, lo + 1));
  } else {
    const step = tickStep(top);
    const yMax = Math.max(step, Math.ceil((top * 1.05) / step) * step);
    y = (v: number) => round(bottom - (v / yMax) * plotH);
    tickValues = [];
    for (let i = 0; i * step <= yMax + step / 1000; i++) tickValues.push(i * step);
  }

  const ticks: Markup[] = [];
  for (const v of tickValues) {
    ticks.push(
      markup`<line x1="${margin.left}" x2="${right}" y1="${y(v)}" y2="${y(v)}" stroke="#eaeef2"/><text x="${margin.left - 6}" y="${y(v) + 4}" text-anchor="end">${tickText(v)}</text>`,
    );
  }
  const xTicks = o.categories.map((c, i) => markup`<text x="${x(i)}" y="${bottom + 16}" text-anchor="middle">${c}</text>`);

  const lines = o.series.map((s) => {
    const points = s.values.map((v, i) => (v === null || !Number.isFinite(v) ? null : { x: x(i), y: y(v) }));
    // A gap splits the line; each run of points is its own polyline.
    const runs: string[][] = [[]];
    for (const p of points) {
      if (p === null) runs.push([]);
      else runs[runs.length - 1].push(`${p.x},${p.y}`);
    }
    const dash = s.dashed === true ? '5 3' : 'none';
    const polylines = runs
      .filter((r) => r.length > 0)
      .map((r) => markup`<polyline points="${r.join(' ')}" fill="none" stroke="${s.colour}" stroke-width="2" stroke-dasharray="${dash}"/>`);
    const dots = points.map((p) => (p === null ? '' : markup`<circle cx="${p.x}" cy="${p.y}" r="3" fill="${s.colour}"/>`));
    return markup`<g data-series="${s.name}">${polylines}${dots}</g>`;
  });

  const legend = o.series.map(
    (s, i) =>
      markup`<g transform="translate(${right + 16},${margin.top + 8 + i * 18})"><line x1="0" x2="18" y1="0" y2="0" stroke="${s.colour}" stroke-width="2" stroke-dasharray="${
        s.dashed === true ? '5 3' : 'none'
      }"/><text x="24" y="4">${s.name}</text></g>`,
  );

  const h = o.horizontal;
  const horizontal =
    h === undefined
      ? ''
      : markup`<g data-mark="${h.mark}"><line x1="${margin.left}" x2="${right}" y1="${y(h.value)}" y2="${y(h.value)}" stroke="#cf222e" stroke-width="1.5" stroke-dasharray="6 4"/><text x="${right + 4}" y="${
          y(h.value) + 4
        }" fill="#cf222e">${h.label}</text></g>`;
  const v = o.vertical;
  const at = v === undefined ? -1 : o.categories.indexOf(v.category);
  const vertical =
    v === undefined || at < 0
      ? ''
      : markup`<g data-mark="${v.mark}"><line x1="${x(at)}" x2="${x(at)}" y1="${margin.top}" y2="${bottom}" stroke="#8250df" stroke-width="1.5" stroke-dasharray="4 3"/><text x="${
          x(at) + 4
        }" y="${margin.top + 10}" fill="#8250df">${v.label}</text></g>`;

  return markup`<svg xmlns="http://www.w3.org/2000/svg" data-scale="${scale}" role="img" aria-label="${o.title}" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
<title>${o.title}</title>
${ticks}
<line x1="${margin.left}" x2="${margin.left}" y1="${margin.top}" y2="${bottom}" stroke="#57606a"/>
<line x1="${margin.left}" x2="${right}" y1="${bottom}" y2="${bottom}" stroke="#57606a"/>
${xTicks}
<text x="${margin.left + plotW / 2}" y="${height - 6}" text-anchor="middle">${o.xLabel}</text>
<text transform="translate(14,${margin.top + plotH / 2}) rotate(-90)" text-anchor="middle">${o.yLabel}${scale === 'log' ? ' (log scale)' : ''}</text>
${horizontal}${vertical}${lines}${legend}
</svg>`;
}
