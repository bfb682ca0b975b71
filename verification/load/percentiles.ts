import type { LatencyMs } from './load-report';

/** p50/p95/p99/max of latencies in ms (nearest rank), rounded to 0.1 ms; zeros when none. */
export function percentiles(latencies: ArrayLike<number>): LatencyMs {
  if (latencies.length === 0) return { p50: 0, p95: 0, p99: 0, max: 0 };
  const sorted = Float64Array.from(latencies).sort();
  const at = (q: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] * 10) / 10;
  return { p50: at(0.5), p95: at(0.95), p99: at(0.99), max: Math.round(sorted[sorted.length - 1] * 10) / 10 };
}
