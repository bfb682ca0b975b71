// Percentiles of latency samples and rounding for printed figures.

/** The p-th percentile of ascending samples (NaN when there are none). */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export const round = (n: number, digits = 3) => Math.round(n * 10 ** digits) / 10 ** digits;
