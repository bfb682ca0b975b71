import { describe, expect, it } from 'vitest';
import { useLoadRuns } from './testing/load-runs';

// verify --load's capacity verdicts against sellers that behave as real ones do
// (realistic-sellers.ts, written apart from the mock seller's load model): a stall the open
// model shows and the closed model warns of, and a knee found in both models. Wall-clock
// figures, so this file runs on its own (vitest.config.ts). The stall is scaled down from
// "1 s every 5 s" to 200 ms every 600 ms. Correctness and unmeasured steps:
// verify-load-correctness.test.ts.

const { sellerThat, load } = useLoadRuns('verify-load-verdicts');

describe('verify --load against a seller that stalls 200 ms every 600 ms', () => {
  it('open model: the stall shows in the p99, counted from each request’s intended send time', async () => {
    const url = await sellerThat({ kind: 'stalls', everyMs: 600, forMs: 200 });
    const { code, report, out } = await load(
      url,
      '--rate',
      '100',
      '--step-seconds',
      '1.2',
      '--timeout',
      '2000',
      '--slo',
      'p99<60ms',
    );
    const step = report.steps[0];
    expect(step.model).toBe('open');
    // A third of the arrivals land in a stall and wait up to 200 ms for it to end: the tail is the stall.
    expect(step.latency_ms.p99).toBeGreaterThan(120);
    expect(step.latency_ms.p99).toBeGreaterThan(3 * step.latency_ms.p50);
    expect(code).toBe(1);
    expect(out.stdout).toMatch(/FAIL: --slo p99<60ms breached at 100 req\/s/);
  });

  it('closed model: the p99 hides the stall, and the report warns of coordinated omission', async () => {
    const url = await sellerThat({ kind: 'stalls', everyMs: 600, forMs: 200 });
    const { report, out } = await load(url, '--concurrency', '1', '--step-seconds', '1.2', '--timeout', '2000');
    const step = report.steps[0];
    if (step.model !== 'closed') throw new Error('closed model expected');
    // The stall is two samples among hundreds: the measured p99 is far below what a steady sender would see.
    expect(step.latency_ms.max).toBeGreaterThan(120);
    expect(step.coordinated_omission?.corrected_p99_ms).toBeGreaterThan(120);
    expect(step.latency_ms.p99).toBeLessThan(step.coordinated_omission!.corrected_p99_ms / 2);
    expect(out.stdout).toMatch(
      /warning: concurrency 1: the latencies suggest coordinated omission .* Measure with --rate\./,
    );
  });
});

describe('verify --load against a seller that is correct but slower as concurrency grows (5 ms + 10 ms per other request in flight)', () => {
  it('closed model: the knee where the p99 passes the 100 ms deadline', async () => {
    const url = await sellerThat({ kind: 'slows-with-concurrency', baseMs: 5, perInFlightMs: 10 });
    const { code, report } = await load(
      url,
      '--concurrency',
      '1,2,4,8,16',
      '--step-seconds',
      '0.3',
      '--timeout',
      '100',
    );
    // 5, 15, 35, 75, 155 ms: 16 is past the deadline; a starved machine may lose 8 as well.
    expect([4, 8]).toContain(report.verdict.knee);
    expect(report.steps.at(-1)!.healthy).toBe(false);
    expect(report.verdict.rules_broken).toEqual([]);
    expect(code).toBe(0);
  });

  it('open model: the knee where arrivals outrun it (at 300 req/s one arrives every 3.3 ms, before the last one’s 5 ms are over: each makes the next slower, without end)', async () => {
    const url = await sellerThat({ kind: 'slows-with-concurrency', baseMs: 5, perInFlightMs: 10 });
    const { code, report, out } = await load(
      url,
      '--rate',
      '20,50,300',
      '--step-seconds',
      '0.6',
      '--timeout',
      '100',
      '--min-rate',
      '300',
    );
    expect(report.verdict.knee).toBe(50);
    expect(report.steps.map((s) => s.healthy)).toEqual([true, true, false]);
    expect(code).toBe(1);
    expect(out.stdout).toMatch(/FAIL: --min-rate 300: not met, the knee is 50 req\/s$/m);
  });
});
