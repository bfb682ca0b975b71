import type { LatencyMs } from './load-report';

/** Nearest rank of a sorted array, rounded to 0.1 ms. */
const rank = (sorted: Float64Array, q: number) =>
  Math.round(sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] * 10) / 10;

/** p50/p90/p95/p99/max of latencies in ms (nearest rank), rounded to 0.1 ms; zeros when none. */
export function percentiles(latencies: ArrayLike<number>): LatencyMs {
  if (latencies.length === 0) return { p50: 0, p90: 0, p95: 0, p99: 0, max: 0 };
  const sorted = Float64Array.from(latencies).sort();
  return {
    p50: rank(sorted, 0.5),
    p90: rank(sorted, 0.9),
    p95: rank(sorted, 0.95),
    p99: rank(sorted, 0.99),
    max: rank(sorted, 1),
  };
}
