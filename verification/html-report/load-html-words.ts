import type { LoadReportView, SloLineView } from './load-view';

// How the load page names a level, an axis and a knee: the closed model speaks of requests in
// flight, the open model of requests sent per second.

export type LoadModel = LoadReportView['model'];

export interface ModelWords {
  /** The x axis's title. */
  axis: string;
  /** "Latency against …". */
  against: string;
  /** The steps table's first column. */
  column: string;
  /** A level in a sentence. */
  level: (n: number) => string;
  /** The model, for the page's header line. */
  name: string;
}

const unreachable = (value: never): never => {
  throw new Error(`unexpected ${String(value)}`);
};

export function modelWords(model: LoadModel): ModelWords {
  switch (model) {
    case 'closed':
      return {
        axis: 'concurrency (requests in flight)',
        against: 'concurrency',
        column: 'concurrency',
        level: (n) => `concurrency ${n}`,
        name: 'closed model (requests in flight)',
      };
    case 'open':
      return {
        axis: 'arrival rate (requests/s, open model)',
        against: 'arrival rate',
        column: 'rate /s',
        level: (n) => `${n} requests/s`,
        name: 'open model (requests sent on a schedule)',
      };
    default:
      return unreachable(model);
  }
}

/** The chart an SLO is drawn on; the others (errors, timeouts, dropped) are only listed. */
export function sloChart(metric: SloLineView['metric']): 'latency' | 'throughput' | undefined {
  switch (metric) {
    case 'p50':
    case 'p90':
    case 'p95':
    case 'p99':
    case 'max':
      return 'latency';
    case 'rps':
      return 'throughput';
    case 'errors':
    case 'timeouts':
    case 'dropped':
      return undefined;
    default:
      return unreachable(metric);
  }
}

/** The knee's label on the charts; null when there is no knee. */
export const kneeLabel = (view: Pick<LoadReportView, 'knee' | 'knee_is_lower_bound'>): string | null =>
  view.knee === null
    ? null
    : view.knee_is_lower_bound
      ? `knee: ≥ ${view.knee} (not measured beyond)`
      : `knee: ${view.knee}`;

/** Milliseconds as the tables show them: whole from 100 on, one decimal below. */
export const ms = (n: number): string => (n >= 100 || Number.isInteger(n) ? String(Math.round(n)) : n.toFixed(1));
