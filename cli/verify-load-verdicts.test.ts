import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTemporaryDirectory } from '../shared/testing/temporary-directory';
import { startMockSeller, type RunningMockSeller } from '../mock-seller/index';
import { readDefaultScenario } from '../mock-seller/default-scenario';
import { startRealisticSeller, type RealisticSeller, type SellerBehaviour } from '../verification/testing/realistic-sellers';
import type { LoadReport } from '../verification/load/load-report';
import type { CtrfReport } from '../verification/report-as-ctrf';
import { verifyCommand } from './verify-command';

// verify --load's verdicts against sellers that behave as real ones do (realistic-sellers.ts,
// written apart from the mock seller's load model) and against a ramp cut short: a stall the
// open model shows and the closed model warns of, a knee found in both models, cross-talk that
// fails the run naming the step and the rules, SLO gates, and never a claim for a step that
// did not run. The stall is scaled down from "1 s every 5 s" to 300 ms every second.

function commandIo() {
  const out = { stdout: '', stderr: '' };
  return {
    out,
    io: {
      stdout: (t: string) => void (out.stdout += t),
      stderr: (t: string) => void (out.stderr += t),
      env: {},
      stdoutIsTTY: false,
      stderrIsTTY: false,
      signal: new AbortController().signal,
    },
  };
}

const dir = useTemporaryDirectory('verify-load-verdicts');
let honest: RunningMockSeller;
const sellers: RealisticSeller[] = [];
beforeAll(async () => {
  honest = await startMockSeller({ scenario: readDefaultScenario() });
});
afterAll(async () => {
  await Promise.all(sellers.map((s) => s.close()));
  await honest.close();
});

const sellerThat = async (behaviour: SellerBehaviour) => {
  const seller = await startRealisticSeller(`${honest.url}/seller`, behaviour);
  sellers.push(seller);
  return seller.url;
};

let runs = 0;
/** One run: its exit code, its output, and its JSON report. */
async function load(sellerUrl: string, ...args: string[]) {
  const json = join(dir.path, `run-${++runs}.json`);
  const { io, out } = commandIo();
  const code = await verifyCommand(
    [
      '--load',
      '--seller-url',
      sellerUrl,
      '--states-url',
      `${honest.url}/__admin/provider-state`,
      '--seed',
      '3',
      '--mix',
      'item_inquiry=1',
      '--json',
      json,
      '--replay-dir',
      join(dir.path, 'replays'),
      ...args,
    ],
    io,
  );
  const report = JSON.parse(await readFile(json, 'utf8')) as LoadReport;
  return { code, out, report };
}

describe('verify --load against a seller that stalls 300 ms every second', () => {
  it('open model: the stall shows in the p99, counted from each request’s intended send time', async () => {
    const url = await sellerThat({ kind: 'stalls', everyMs: 1000, forMs: 300 });
    const { code, report, out } = await load(url, '--rate', '100', '--step-seconds', '2', '--timeout', '2000', '--slo', 'p99<100ms');
    const step = report.steps[0];
    expect(step.model).toBe('open');
    // ~30% of the arrivals land in a stall and wait up to 300 ms for it to end: the tail is the stall.
    expect(step.latency_ms.p99).toBeGreaterThan(150);
    expect(step.latency_ms.p99).toBeGreaterThan(3 * step.latency_ms.p50);
    expect(code).toBe(1);
    expect(out.stdout).toMatch(/FAIL: --slo p99<100ms breached at 100 req\/s/);
  });

  it('closed model: the p99 hides the stall, and the report warns of coordinated omission', async () => {
    const url = await sellerThat({ kind: 'stalls', everyMs: 1000, forMs: 300 });
    const { report, out } = await load(url, '--concurrency', '1', '--step-seconds', '2', '--timeout', '2000');
    const step = report.steps[0];
    if (step.model !== 'closed') throw new Error('closed model expected');
    // The stall is two samples among hundreds: the measured p99 is far below what a steady sender would see.
    expect(step.latency_ms.max).toBeGreaterThan(150);
    expect(step.coordinated_omission?.corrected_p99_ms).toBeGreaterThan(150);
    expect(step.latency_ms.p99).toBeLessThan(step.coordinated_omission!.corrected_p99_ms / 2);
    expect(out.stdout).toMatch(/warning: concurrency 1: the latencies suggest coordinated omission .* Measure with --rate\./);
  });
});

describe('verify --load against a seller that is correct but slower as concurrency grows (5 ms + 10 ms per other request in flight)', () => {
  it('closed model: the knee where the p99 passes the 100 ms deadline', async () => {
    const url = await sellerThat({ kind: 'slows-with-concurrency', baseMs: 5, perInFlightMs: 10 });
    const { code, report } = await load(url, '--concurrency', '1,2,4,8,16', '--step-seconds', '0.5', '--timeout', '100');
    // 5, 15, 35, 75, 155 ms: 16 is past the deadline; a starved machine may lose 8 as well.
    expect([4, 8]).toContain(report.verdict.knee);
    expect(report.steps.at(-1)!.healthy).toBe(false);
    expect(report.verdict.rules_broken).toEqual([]);
    expect(code).toBe(0);
  });

  it('open model: the knee where arrivals outrun it (at 300 req/s one arrives every 3.3 ms, before the last one’s 5 ms are over: each makes the next slower, without end)', async () => {
    const url = await sellerThat({ kind: 'slows-with-concurrency', baseMs: 5, perInFlightMs: 10 });
    const { code, report, out } = await load(url, '--rate', '20,50,300', '--step-seconds', '1', '--timeout', '100', '--min-rate', '300');
    expect(report.verdict.knee).toBe(50);
    expect(report.steps.map((s) => s.healthy)).toEqual([true, true, false]);
    expect(code).toBe(1);
    expect(out.stdout).toMatch(/FAIL: the knee is below --min-rate 300 \(capacity: the knee is 50 req\/s\)/);
  });
});

describe('verify --load against a seller that mixes buyers’ items above 2 requests in flight', () => {
  it('closed model: the run fails naming the step and the rules, never PASS', async () => {
    const url = await sellerThat({ kind: 'cross-talks', above: 2, delayMs: 20 });
    const { code, report, out } = await load(url, '--concurrency', '1,2,4', '--step-seconds', '0.5');
    expect(code).toBe(1);
    expect(report.steps.map((s) => s.correct)).toEqual([true, true, false]);
    const rules = report.verdict.rules_broken.map((r) => r.rule);
    expect(rules).toContain('item.unknown-id');
    expect(report.verdict.rules_broken.every((r) => r.first_level === 4 && r.only_under_concurrency)).toBe(true);
    expect(out.stdout).toMatch(/^FAIL: reply rules broken — item\.[a-z-]+ from concurrency 4 \(only under concurrency\)/m);
    expect(out.stdout).not.toMatch(/PASS/);
  });

  it('open model: the same, named by its rate', async () => {
    const url = await sellerThat({ kind: 'cross-talks', above: 2, delayMs: 20 });
    const { code, report, out } = await load(url, '--rate', '10,400', '--step-seconds', '0.6');
    expect(code).toBe(1);
    expect(report.steps[0].correct).toBe(true);
    expect(report.verdict.rules_broken.map((r) => r.first_level)).toContain(400);
    expect(out.stdout).toMatch(/FAIL: reply rules broken — .*from 400 req\/s/);
  });
});

describe('verify --load never claims a step it did not measure', () => {
  const slowHonest = async () => {
    const mock = await startMockSeller({ scenario: { ...readDefaultScenario(), load: { service_time: { ms: 5 } } } });
    sellers.push({ url: mock.url, peakInFlight: () => 0, close: () => mock.close() });
    return mock;
  };

  it('a spent budget: the steps not run are listed, the knee reads "at least", a gate that needs them fails', async () => {
    const mock = await slowHonest();
    const args = ['--max-concurrency', '8', '--step-seconds', '0.5', '--max-requests', '150'];
    const junit = join(dir.path, 'cut.xml');
    const run = await load(`${mock.url}/seller`, ...args, '--junit', junit);
    expect(run.out.stderr).toMatch(/at most 150 requests \(--max-requests\), no orders, seed 3/); // item inquiries only: no order is sent
    expect(run.report.verdict.knee).toBe(1);
    expect(run.report.verdict.knee_is_lower_bound).toBe(true);
    expect(run.report.verdict.not_run).toEqual([4, 8]);
    expect(run.report.steps[1].partial).toBe(true);
    expect(run.code).toBe(0);
    expect(run.out.stdout).toMatch(/Not run: concurrency 4, concurrency 8 — the request budget \(--max-requests 150\) was spent during concurrency 2\./);
    expect(run.out.stdout).toMatch(
      /PASS: the knee is at least concurrency 1 \(not measured beyond: concurrency 2, concurrency 4 and concurrency 8 were not measured whole/,
    );
    const xml = await readFile(junit, 'utf8');
    expect(xml).toMatch(/name="concurrency 8" time="0">\s*<skipped message="not run: the request budget/);

    const gated = await load(`${mock.url}/seller`, ...args, '--min-concurrency', '8');
    expect(gated.code).toBe(1);
    expect(gated.out.stdout).toMatch(/FAIL: --min-concurrency 8 needs concurrency 8, which was not measured whole \(the request budget/);
  });

  it('--abort-on-fail stops at the first step that breaches an SLO; CTRF says the same as JUnit', async () => {
    const url = await sellerThat({ kind: 'slows-with-concurrency', baseMs: 5, perInFlightMs: 10 });
    const ctrf = join(dir.path, 'abort.ctrf.json');
    const { code, report, out } = await load(url, '--concurrency', '1,4,8', '--step-seconds', '0.5', '--slo', 'p95<25ms', '--abort-on-fail', '--ctrf', ctrf);
    expect(code).toBe(1);
    expect(report.steps.map((s) => s.slo_breaches)).toEqual([[], ['p95<25ms']]);
    expect(report.verdict.not_run).toEqual([8]);
    expect(out.stdout).toMatch(/FAIL: --slo p95<25ms breached at concurrency 4; --slo could not be checked at concurrency 8/);
    const tests = (JSON.parse(await readFile(ctrf, 'utf8')) as CtrfReport).results.tests.map((t) => [t.name, t.status]);
    expect(tests).toEqual([
      ['concurrency 1', 'passed'],
      ['concurrency 4', 'failed'],
      ['concurrency 8', 'skipped'],
      ['p95<25ms', 'failed'],
      ['min-concurrency', 'passed'],
    ]);
  });
});
