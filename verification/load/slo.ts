import type { LoadStep, Slo, SloComparison, SloMetric, SloResult } from './load-report';
import { levelOf } from './load-report';
import { percentiles } from './percentiles';

// `--slo 'p95<300ms,p99<1s,errors<0.1%,timeouts=0'`: thresholds as k6 writes them, evaluated
// on every step and on the run as a whole (every exchange of every step). Latency in ms or s,
// rps in requests/s, errors, timeouts and dropped as counts or, with %, as shares of exchanges.

const LATENCY = ['p50', 'p90', 'p95', 'p99', 'max'] as const;
const COUNTS = ['errors', 'timeouts', 'dropped'] as const;
export const SLO_METRICS = [...LATENCY, 'rps', ...COUNTS] as const satisfies readonly SloMetric[];

/** An SLO expression that does not parse; the message names the part at fault. */
export class SloSyntaxError extends Error {}

const isLatency = (m: SloMetric): m is (typeof LATENCY)[number] => (LATENCY as readonly string[]).includes(m);
const isCount = (m: SloMetric): m is (typeof COUNTS)[number] => (COUNTS as readonly string[]).includes(m);

/** k6's p(95) is accepted for p95. */
const metricName = (text: string) => text.replace(/^p\((\d+)\)$/, 'p$1');

export function parseSlo(expression: string): Slo {
  const m = /^\s*([a-z0-9()]+)\s*(<=|>=|==|=|<|>)\s*([^\s]*)\s*$/i.exec(expression);
  if (m === null)
    throw new SloSyntaxError(`'${expression}' is not metric<value (e.g. p95<300ms, errors<0.1%, timeouts=0)`);
  const metric = metricName(m[1].toLowerCase());
  if (!(SLO_METRICS as readonly string[]).includes(metric))
    throw new SloSyntaxError(`unknown metric '${m[1]}' in '${expression.trim()}' (known: ${SLO_METRICS.join(', ')})`);
  const comparison = (m[2] === '==' ? '=' : m[2]) as SloComparison;
  const v = /^(\d+(?:\.\d+)?)(ms|s|%|\/s)?$/.exec(m[3]);
  if (v === null)
    throw new SloSyntaxError(`'${m[3]}' in '${expression.trim()}' is not a number with an optional unit (ms, s, %)`);
  const unit = v[2];
  const typed = metric as SloMetric;
  let value = Number(v[1]);
  if (isLatency(typed)) {
    if (unit === '%' || unit === '/s')
      throw new SloSyntaxError(`'${expression.trim()}': ${metric} is a latency, in ms or s`);
    if (unit === 's') value *= 1000;
  } else if (typed === 'rps') {
    if (unit !== undefined && unit !== '/s')
      throw new SloSyntaxError(`'${expression.trim()}': rps is requests per second, a plain number`);
  } else if (unit === 'ms' || unit === 's' || unit === '/s')
    throw new SloSyntaxError(`'${expression.trim()}': ${metric} is a count or a share (%), not a time`);
  if (unit === '%' && value > 100) throw new SloSyntaxError(`'${expression.trim()}': a share above 100%`);
  return { expression: expression.trim(), metric: typed, comparison, value, percent: unit === '%' };
}

/** A measured value in the SLO's unit: '962.4 ms', '0.15%', '3', '250 req/s'. */
export function sloValueText(slo: Slo, value: number): string {
  if (isLatency(slo.metric)) return `${value} ms`;
  if (slo.metric === 'rps') return `${value} req/s`;
  return slo.percent ? `${value}%` : String(value);
}

/** A comma-separated list; an empty entry is an error, not a silent pass. */
export function parseSlos(text: string): Slo[] {
  const parts = text.split(',');
  if (parts.some((p) => p.trim() === '')) throw new SloSyntaxError(`'${text}' has an empty entry`);
  return parts.map(parseSlo);
}

function holds(comparison: SloComparison, measured: number, value: number): boolean {
  switch (comparison) {
    case '<':
      return measured < value;
    case '<=':
      return measured <= value;
    case '=':
      return measured === value;
    case '>=':
      return measured >= value;
    case '>':
      return measured > value;
  }
}

/** The figures an SLO reads, of one step or of the run. */
export interface SloFigures {
  latencyMs: { p50: number; p90: number; p95: number; p99: number; max: number };
  throughputPerS: number;
  exchanges: number;
  errors: number;
  timeouts: number;
  dropped: number;
}

export function measured(slo: Slo, f: SloFigures): number {
  const metric = slo.metric;
  if (isLatency(metric)) return f.latencyMs[metric];
  if (metric === 'rps') return f.throughputPerS;
  if (!isCount(metric)) throw new Error(`unreachable: ${metric satisfies never}`);
  const count = f[metric];
  if (!slo.percent) return count;
  const of = metric === 'dropped' ? f.exchanges + f.dropped : f.exchanges;
  return of === 0 ? 0 : (count / of) * 100;
}

/** Held on these figures? Nothing measured holds nothing. */
export const sloHolds = (slo: Slo, f: SloFigures): boolean =>
  f.exchanges > 0 && holds(slo.comparison, measured(slo, f), slo.value);

export const stepFigures = (step: LoadStep): SloFigures => ({
  latencyMs: step.latency_ms,
  throughputPerS: step.throughput_per_s,
  exchanges: step.exchanges,
  errors: step.errors,
  timeouts: step.timeouts,
  dropped: step.model === 'open' ? step.dropped : 0,
});

/** Every exchange of every step as one: latencies merged, counts summed, the rate over the time the steps ran. */
export function runFigures(steps: LoadStep[], latencies: Float64Array[]): SloFigures {
  const total = latencies.reduce((n, l) => n + l.length, 0);
  const all = new Float64Array(total);
  let at = 0;
  for (const l of latencies) {
    all.set(l, at);
    at += l.length;
  }
  const seconds = steps.reduce((s, step) => s + step.seconds, 0);
  const sum = (f: (s: SloFigures) => number) => steps.reduce((n, s) => n + f(stepFigures(s)), 0);
  return {
    latencyMs: percentiles(all),
    throughputPerS: seconds === 0 ? 0 : Math.round((total / seconds) * 10) / 10,
    exchanges: sum((s) => s.exchanges),
    errors: sum((s) => s.errors),
    timeouts: sum((s) => s.timeouts),
    dropped: sum((s) => s.dropped),
  };
}

export function sloResults(slos: Slo[], steps: LoadStep[], run: SloFigures): SloResult[] {
  return slos.map((slo) => ({
    ...slo,
    breached_at: steps.filter((s) => s.slo_breaches.includes(slo.expression)).map(levelOf),
    run_value: Math.round(measured(slo, run) * 1000) / 1000,
    run_held: sloHolds(slo, run),
  }));
}
