// Percentiles and medians of benchmark samples, and rounding for printed figures.

/** The p-th percentile of ascending samples (NaN when there are none). */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** The median of samples in any order (the mean of the middle two for an even count). */
export function median(samples: readonly number[]): number {
  const s = [...samples].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

export const round = (n: number, digits = 3) => Math.round(n * 10 ** digits) / 10 ** digits;
