import { markup, type Markup } from './html-text';
import {
  baselineBounds,
  centredBaseline,
  LEGEND,
  legendPositions,
  spreadBaselines,
  textBox,
  textWidth,
  type Box,
} from './svg-label-layout';

// A small line chart drawn as inline SVG (no chart library, nothing loaded): categories along
// x (the load steps, evenly spaced whatever their values), a linear y axis from 0 with round
// ticks (or a log axis, when values span decades: a 30 s deadline must not flatten 50 ms
// latencies), one polyline per series, and marks: horizontal lines (a deadline, SLOs) labelled
// in the right margin, a vertical line at one category (the knee) labelled above the plot, and
// categories greyed with a note (steps that never ran). The legend sits above the plot, so no
// label is ever drawn on it, and every label stays inside the SVG's box.

export interface ChartSeries {
  name: string;
  colour: string;
  /** One value per category; null leaves a gap. */
  values: (number | null)[];
  dashed?: boolean;
}

export interface HorizontalMark {
  value: number;
  label: string;
  /** Names it (data-mark), e.g. 'deadline' or 'slo'. */
  mark: string;
  colour: string;
  /** stroke-dasharray. */
  dash: string;
}

export interface LineChartOptions {
  /** Names the chart for screen readers and tests. */
  title: string;
  categories: number[];
  series: ChartSeries[];
  xLabel: string;
  yLabel: string;
  /** Horizontal lines, e.g. the deadline and SLOs; their labels are stacked where they would collide. */
  horizontal?: HorizontalMark[];
  /** A vertical line at one category, e.g. the knee. */
  vertical?: { category: number; label: string; mark: string };
  /** Categories with nothing measured (steps that never ran): greyed on the x axis, one note under them. */
  muted?: { categories: number[]; note: string };
  /** 'auto': log when the values (and the horizontal marks) span more than SPAN_FOR_LOG. Default linear. */
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

const MUTED = '#8c959f';
const KNEE_COLOUR = '#8250df';
/** A mark's label starts this far right of the plot, leaving room for the leader of a label moved off its line. */
const MARK_LABEL_DX = 8;

/** The plot's edges and where the text around it goes, all decided from the labels' estimated sizes. */
interface Frame {
  width: number;
  height: number;
  left: number;
  right: number;
  top: number;
  bottom: number;
  legend: { x: number; row: number }[];
  legendBaseline: (row: number) => number;
  /** The baseline of the knee's label, between the legend and the plot. */
  aboveBaseline: number;
}

function frameOf(o: LineChartOptions): Frame {
  const width = o.width ?? 640;
  const height = o.height ?? 320;
  const left = 64;
  // The right margin holds the marks' labels, and half the last category's label.
  const markLabels = Math.max(0, ...(o.horizontal ?? []).map((h) => textWidth(h.label)));
  const right = width - Math.min(width / 3, Math.max(24, MARK_LABEL_DX + markLabels + 4));
  const legend = legendPositions(
    o.series.map((s) => s.name),
    left,
    right,
  );
  const rows = legend.length === 0 ? 0 : Math.max(...legend.map((l) => l.row)) + 1;
  const aboveBaseline = 14 + rows * LEGEND.rowPx;
  // Under the x labels: the note on muted categories (when any), then the axis title.
  const bottom = height - ((o.muted?.categories.length ?? 0) > 0 ? 52 : 38);
  return {
    width,
    height,
    left,
    right,
    top: aboveBaseline + 10,
    bottom,
    legend,
    legendBaseline: (row) => 12 + row * LEGEND.rowPx,
    aboveBaseline,
  };
}

/** The y of a value, and the axis ticks, on a linear or log scale from the values and marks. */
function yAxis(o: LineChartOptions, f: Frame): { scale: 'linear' | 'log'; y: (v: number) => number; ticks: number[] } {
  const values = o.series.flatMap((s) => s.values.filter((v): v is number => v !== null && Number.isFinite(v)));
  const marked = [...values, ...(o.horizontal ?? []).map((h) => h.value)];
  const scale = o.scale === 'auto' ? chooseScale(marked) : (o.scale ?? 'linear');
  const top = Math.max(...marked, 0);
  const plotH = f.bottom - f.top;
  if (scale === 'log') {
    const positive = marked.filter((v) => v > 0);
    const lo = Math.floor(Math.log10(Math.min(...positive)));
    const hi = Math.ceil(Math.log10(top));
    // Zero has no place on a log axis: it sits on the bottom line.
    const y = (v: number) =>
      round(f.bottom - ((Math.log10(Math.max(v, 10 ** lo)) - lo) / Math.max(1, hi - lo)) * plotH);
    return { scale, y, ticks: logTicks(lo, Math.max(hi, lo + 1)) };
  }
  const step = tickStep(top);
  const yMax = Math.max(step, Math.ceil((top * 1.05) / step) * step);
  const ticks: number[] = [];
  for (let i = 0; i * step <= yMax + step / 1000; i++) ticks.push(i * step);
  return { scale, y: (v: number) => round(f.bottom - (v / yMax) * plotH), ticks };
}

/** The horizontal marks, their labels in the right margin stacked apart, each joined to its line when moved off it. */
function horizontalMarks(marks: HorizontalMark[], f: Frame, y: (v: number) => number): Markup[] {
  const wanted = marks.map((h) => centredBaseline(y(h.value)));
  // Down to just above the x labels under the plot's right edge.
  const baselines = spreadBaselines(wanted, baselineBounds(0, f.height).min, centredBaseline(f.bottom) - 2);
  return marks.map((h, i) => {
    const lineY = y(h.value);
    const baseline = round(baselines[i]);
    const leader =
      Math.abs(baseline - wanted[i]) > 0.5
        ? markup`<line x1="${f.right}" x2="${f.right + MARK_LABEL_DX - 2}" y1="${lineY}" y2="${round(baseline - centredBaseline(0))}" stroke="${h.colour}" stroke-width="1"/>`
        : '';
    return markup`<g data-mark="${h.mark}" data-label="${h.label}"><line x1="${f.left}" x2="${f.right}" y1="${lineY}" y2="${lineY}" stroke="${h.colour}" stroke-width="1.5" stroke-dasharray="${h.dash}"/>${leader}<text x="${
      f.right + MARK_LABEL_DX
    }" y="${baseline}" fill="${h.colour}">${h.label}</text></g>`;
  });
}

/** The vertical mark's label sits above the plot, beside its line: right of it where it fits, else left. */
function verticalMark(v: NonNullable<LineChartOptions['vertical']>, atX: number, f: Frame): Markup {
  const fitsRight = atX + 4 + textWidth(v.label) <= f.right;
  const fitsLeft = atX - 4 - textWidth(v.label) >= 2;
  const anchor = fitsRight || !fitsLeft ? 'start' : 'end';
  const labelX = anchor === 'start' ? atX + 4 : atX - 4;
  return markup`<g data-mark="${v.mark}"><line x1="${atX}" x2="${atX}" y1="${f.top}" y2="${f.bottom}" stroke="${KNEE_COLOUR}" stroke-width="1.5" stroke-dasharray="4 3"/><text x="${labelX}" y="${
    f.aboveBaseline
  }" text-anchor="${anchor}" fill="${KNEE_COLOUR}">${v.label}</text></g>`;
}

/** Muted categories: a grey band over them from halfway to the last measured one, and one note under their labels. */
function mutedBand(
  muted: NonNullable<LineChartOptions['muted']>,
  categories: number[],
  x: (i: number) => number,
  f: Frame,
): Markup | string {
  const at = categories.map((c, i) => (muted.categories.includes(c) ? i : -1)).filter((i) => i >= 0);
  if (at.length === 0) return '';
  const first = at[0];
  const from = first === 0 ? f.left : round((x(first - 1) + x(first)) / 2);
  const box: Box = textBox(muted.note, (x(first) + x(at[at.length - 1])) / 2, 0, 'middle');
  // Kept inside the SVG when the note is wider than the band it names.
  const noteX = round(Math.min(Math.max(box.x, 2), f.width - 2 - box.width) + box.width / 2);
  return markup`<g data-muted="${at.map((i) => categories[i]).join(' ')}"><rect x="${from}" y="${f.top}" width="${round(Math.max(f.right - from, 0))}" height="${
    f.bottom - f.top
  }" fill="#f6f8fa"/><text x="${noteX}" y="${f.bottom + 30}" text-anchor="middle" fill="${MUTED}">${muted.note}</text></g>`;
}

function seriesLine(s: ChartSeries, x: (i: number) => number, y: (v: number) => number): Markup {
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
    .map(
      (r) =>
        markup`<polyline points="${r.join(' ')}" fill="none" stroke="${s.colour}" stroke-width="2" stroke-dasharray="${dash}"/>`,
    );
  const dots = points.map((p) =>
    p === null ? '' : markup`<circle cx="${p.x}" cy="${p.y}" r="3" fill="${s.colour}"/>`,
  );
  return markup`<g data-series="${s.name}">${polylines}${dots}</g>`;
}

function legendOf(o: LineChartOptions, f: Frame): Markup {
  const items = f.legend.map(({ x, row }, i) => {
    const s = o.series[i];
    const baseline = f.legendBaseline(row);
    const keyY = round(baseline - centredBaseline(0));
    return markup`<line x1="${x}" x2="${x + LEGEND.keyPx}" y1="${keyY}" y2="${keyY}" stroke="${s.colour}" stroke-width="2" stroke-dasharray="${
      s.dashed === true ? '5 3' : 'none'
    }"/><text x="${round(x + LEGEND.keyPx + LEGEND.gapPx)}" y="${baseline}">${s.name}</text>`;
  });
  return markup`<g data-legend="">${items}</g>`;
}

export function lineChart(o: LineChartOptions): Markup {
  const f = frameOf(o);
  const { scale, y, ticks } = yAxis(o, f);
  const plotW = f.right - f.left;
  const n = o.categories.length;
  const x = (i: number) => round(f.left + (n <= 1 ? plotW / 2 : (i * plotW) / (n - 1)));
  const muted = new Set(o.muted?.categories ?? []);

  const yTicks = ticks.map(
    (v) =>
      markup`<line x1="${f.left}" x2="${f.right}" y1="${y(v)}" y2="${y(v)}" stroke="#eaeef2"/><text x="${f.left - 6}" y="${y(v) + 4}" text-anchor="end">${tickText(v)}</text>`,
  );
  const xTicks = o.categories.map((c, i) =>
    muted.has(c)
      ? markup`<text x="${x(i)}" y="${f.bottom + 16}" text-anchor="middle" fill="${MUTED}">${c}</text>`
      : markup`<text x="${x(i)}" y="${f.bottom + 16}" text-anchor="middle">${c}</text>`,
  );
  const v = o.vertical;
  const at = v === undefined ? -1 : o.categories.indexOf(v.category);

  return markup`<svg xmlns="http://www.w3.org/2000/svg" data-scale="${scale}" role="img" aria-label="${o.title}" width="${f.width}" height="${f.height}" viewBox="0 0 ${f.width} ${f.height}">
<title>${o.title}</title>
${o.muted !== undefined ? mutedBand(o.muted, o.categories, x, f) : ''}
${yTicks}
<line x1="${f.left}" x2="${f.left}" y1="${f.top}" y2="${f.bottom}" stroke="#57606a"/>
<line x1="${f.left}" x2="${f.right}" y1="${f.bottom}" y2="${f.bottom}" stroke="#57606a"/>
${xTicks}
<text x="${round(f.left + plotW / 2)}" y="${f.height - 8}" text-anchor="middle">${o.xLabel}</text>
<text transform="translate(12,${round((f.top + f.bottom) / 2)}) rotate(-90)" text-anchor="middle">${o.yLabel}${scale === 'log' ? ' (log scale)' : ''}</text>
${horizontalMarks(o.horizontal ?? [], f, y)}${v !== undefined && at >= 0 ? verticalMark(v, x(at), f) : ''}${o.series.map((s) => seriesLine(s, x, y))}${legendOf(o, f)}
</svg>`;
}
