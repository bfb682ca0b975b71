import type { CoordinatedOmission } from './load-report';

// The closed model sends a worker's next request only when its last one answered, so while a
// seller stalls the driver sends nothing, and the stall is one sample among thousands: the
// percentiles hide it (coordinated omission). HdrHistogram's correction puts back the samples a
// steady sender would have taken: a reply that took L at an expected interval i stands for the
// requests that would have been sent at i, 2i, … into the stall and waited L − i, L − 2i, ….
// Nothing is recorded twice: the corrected p99 is found by counting, without the samples.

/** The p-quantile of the latencies with HdrHistogram's correction for the expected interval. */
export function correctedQuantile(latencies: ArrayLike<number>, intervalMs: number, q: number): number {
  const n = latencies.length;
  if (n === 0) return 0;
  const i = Math.max(intervalMs, 1e-3);
  // Samples at or above t, the synthetic ones included (value − k·i for k ≥ 1 while ≥ i).
  const atOrAbove = (t: number) => {
    let count = 0;
    const floor = Math.max(t, i);
    for (let k = 0; k < n; k++) {
      const l = latencies[k];
      if (l >= t) count++;
      if (l - i >= floor) count += Math.floor((l - floor) / i);
    }
    return count;
  };
  const total = atOrAbove(0);
  const wanted = (1 - q) * total;
  let lo = 0;
  let hi = 0;
  for (let k = 0; k < n; k++) hi = Math.max(hi, latencies[k]);
  // The smallest t with no more than (1 − q) of the samples above it, to 0.1 ms.
  while (hi - lo > 0.05) {
    const mid = (lo + hi) / 2;
    if (atOrAbove(mid) > wanted) lo = mid;
    else hi = mid;
  }
  return Math.round(hi * 10) / 10;
}

/**
 * Suspected when the corrected p99 is over twice the measured one and further from it than a
 * twentieth of the deadline (at least 10 ms): a stall worth sizing for, not scheduler noise.
 * The expected interval is the step's median latency: a closed worker sends about that often.
 */
export function coordinatedOmission(
  latencies: ArrayLike<number>,
  p50: number,
  p99: number,
  max: number,
  deadlineMs: number,
): CoordinatedOmission | undefined {
  if (latencies.length === 0 || max <= p99) return undefined;
  const corrected = correctedQuantile(latencies, p50, 0.99);
  if (corrected <= 2 * p99 || corrected - p99 < Math.max(10, deadlineMs / 20)) return undefined;
  return { corrected_p99_ms: corrected, max_ms: max };
}
