import { describe, expect, it } from 'vitest';
import { coordinatedOmission, correctedQuantile } from './coordinated-omission';
import { percentiles } from './percentiles';

// The correction against the samples it stands for, written out; and the suspicion raised for a
// stall, not for a seller whose slow replies are merely spread.

/** HdrHistogram's recordValueWithExpectedInterval, sample by sample: the reference. */
function corrected(latencies: number[], interval: number): number[] {
  const out: number[] = [];
  for (const l of latencies) {
    out.push(l);
    for (let missing = l - interval; missing >= interval; missing -= interval) out.push(missing);
  }
  return out;
}

describe('correctedQuantile', () => {
  it('equals the quantile of the samples HdrHistogram would record, to 0.1 ms', () => {
    const latencies = [...Array.from({ length: 2000 }, (_, k) => 1 + (k % 7) * 0.1), 250, 400];
    for (const q of [0.5, 0.9, 0.99, 0.999]) {
      const reference = Float64Array.from(corrected(latencies, 1.3)).sort();
      const expected = reference[Math.ceil(q * reference.length) - 1];
      expect(Math.abs(correctedQuantile(latencies, 1.3, q) - expected)).toBeLessThanOrEqual(0.1);
    }
  });

  it('changes nothing when no reply is longer than twice the interval', () => {
    const latencies = Array.from({ length: 500 }, (_, k) => 2 + (k % 10) * 0.1);
    expect(correctedQuantile(latencies, 2, 0.99)).toBe(percentiles(latencies).p99);
  });
});

describe('coordinatedOmission', () => {
  it('is suspected for a 1 s stall among 1 ms replies, where the measured p99 sees nothing', () => {
    // One worker, 5 s: ~4,000 replies of 1 ms and one of 1,000 ms (the stall).
    const latencies = [...Array.from({ length: 4000 }, () => 1), 1000];
    const p = percentiles(latencies);
    expect(p.p99).toBe(1);
    const suspected = coordinatedOmission(latencies, p.p50, p.p99, p.max, 5000);
    expect(suspected).toBeDefined();
    // A steady sender would have waited during a fifth of the time: p99 near the stall.
    expect(suspected!.corrected_p99_ms).toBeGreaterThan(900);
    expect(suspected!.max_ms).toBe(1000);
  });

  it('is not suspected for a seller that is slow evenly, nor for one slow outlier against a long deadline', () => {
    const even = Array.from({ length: 1000 }, (_, k) => 40 + (k % 20));
    const e = percentiles(even);
    expect(coordinatedOmission(even, e.p50, e.p99, e.max, 5000)).toBeUndefined();
    const outlier = [...Array.from({ length: 4000 }, () => 5), 60];
    const o = percentiles(outlier);
    expect(coordinatedOmission(outlier, o.p50, o.p99, o.max, 5000)).toBeUndefined();
  });
});
