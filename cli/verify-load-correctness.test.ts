import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CtrfReport } from '../verification/reports/report-as-ctrf';
import { useLoadRuns } from './testing/load-runs';
import { ctrfSchemaErrors } from '../verification/testing/ctrf-schema';

// verify --load never passes a seller that breaks a reply rule, and never claims a step it did
// not measure: cross-talk fails the run naming the step and the rules in both models, a spent
// budget lists the steps not run and reads the knee as "at least", --abort-on-fail stops at
// the first breached SLO, and CTRF says what JUnit says. The verdicts here hold on a busy
// machine (wide margins); the wall-clock ones are in verify-load-verdicts.wall-clock.test.ts.

const { dir, sellerThat, mockWith, load } = useLoadRuns('verify-load-correctness');

describe('verify --load against a seller that mixes buyers’ items above 3 requests in flight', () => {
  it('closed model: the run fails naming the step and the rules, never PASS', async () => {
    const url = await sellerThat({ kind: 'cross-talks', above: 3, delayMs: 20 });
    const { code, report, out } = await load(url, '--concurrency', '1,2,4', '--step-seconds', '0.3');
    expect(code).toBe(1);
    expect(report.steps.map((s) => s.correct)).toEqual([true, true, false]);
    expect(report.verdict.rules_broken.map((r) => r.rule)).toContain('item.unknown-id');
    expect(report.verdict.rules_broken.every((r) => r.first_level === 4 && r.only_under_concurrency)).toBe(true);
    expect(out.stdout).toMatch(
      /^FAIL: [\d,]+ of [\d,]+ replies broke a reply rule — item\.[a-z-]+ ×[\d,]+ from concurrency 4 \(only under concurrency\)/m,
    );
    expect(out.stdout).not.toMatch(/PASS/);
  });

  it('open model: the same, named by its rate', async () => {
    const url = await sellerThat({ kind: 'cross-talks', above: 3, delayMs: 20 });
    const { code, report, out } = await load(url, '--rate', '10,400', '--step-seconds', '0.5');
    expect(code).toBe(1);
    expect(report.steps[0].correct).toBe(true);
    expect(report.verdict.rules_broken.map((r) => r.first_level)).toContain(400);
    expect(out.stdout).toMatch(/FAIL: [\d,]+ of [\d,]+ replies broke a reply rule — .*from 400 req\/s/);
  });
});

describe('verify --load never claims a step it did not measure', () => {
  it('a spent budget: the steps not run are listed, the knee reads "at least", a gate that needs them fails', async () => {
    // 100 ms a request: the first half-second step sends at most 5 (fewer on a busy machine, never
    // more), the second up to 10, so 8 run out in the second with room either side of the load.
    const url = await mockWith({ service_time: { ms: 100 } });
    const args = ['--max-concurrency', '8', '--step-seconds', '0.5', '--max-requests', '8'];
    const junit = join(dir.path, 'cut.xml');
    const run = await load(url, ...args, '--junit', junit);
    expect(run.out.stderr).toContain(
      'load: no orders will be placed (add --orders to include place-order in the mix)\n',
    );
    expect(run.out.stderr).toMatch(/at most 8 requests \(--max-requests\), seed 3/);
    expect(run.report.verdict.knee).toBe(1);
    expect(run.report.verdict.knee_is_lower_bound).toBe(true);
    expect(run.report.verdict.not_run).toEqual([4, 8]);
    expect(run.report.steps[1].partial).toBe(true);
    expect(run.code).toBe(0);
    expect(run.out.stdout).toMatch(
      /Not run: concurrency 4, concurrency 8 — the request budget \(--max-requests 8\) was spent during concurrency 2\./,
    );
    expect(run.out.stdout).toMatch(
      /PASS: the knee is at least concurrency 1 \(not measured beyond: concurrency 2, concurrency 4 and concurrency 8 were not measured whole/,
    );
    const xml = await readFile(junit, 'utf8');
    expect(xml).toMatch(/name="concurrency 8" time="0">\s*<skipped message="not run: the request budget/);
    // The step the budget cut is not measured whole: skipped with the reason, neither passed nor failed.
    expect(xml).toMatch(
      /name="concurrency 2" time="[\d.]+">\s*<skipped message="cut short: the request budget \(--max-requests 8\) was spent during concurrency 2/,
    );
    expect(run.out.stdout).toMatch(/^cut +2 /m);

    const gated = await load(url, ...args, '--min-concurrency', '8');
    expect(gated.code).toBe(1);
    expect(gated.out.stdout).toMatch(
      /FAIL: --min-concurrency 8: not judged, concurrency 8 was not measured whole \(the request budget/,
    );
  });

  it('--time-limit cuts the step under way and says which did not run', async () => {
    const url = await mockWith({ service_time: { ms: 2 } });
    const run = await load(
      url,
      '--concurrency',
      '1,2,4',
      '--step-seconds',
      '0.6',
      '--time-limit',
      '0.9s',
      '--junit',
      join(dir.path, 'limit.xml'),
    );
    expect(run.out.stderr).toMatch(/, at most 0\.9 s \(--time-limit\)/);
    expect(run.report.steps.map((s) => s.partial === true)).toEqual([false, true]);
    expect(run.report.verdict.not_run).toEqual([4]);
    expect(run.report.verdict.knee_is_lower_bound).toBe(true);
    expect(run.out.stdout).toMatch(
      /Not run: concurrency 4 — the time limit \(--time-limit 0\.9s\) was reached during concurrency 2\./,
    );
    expect(run.code).toBe(0);
    expect(await readFile(join(dir.path, 'limit.xml'), 'utf8')).toMatch(
      /name="concurrency 4" time="0">\s*<skipped message="not run: the time limit/,
    );
  });

  it('--abort-on-fail stops at the first step that breaches an SLO; CTRF says the same as JUnit', async () => {
    // 5 ms alone, 185 ms at four in flight: a 100 ms SLO holds at 1 and breaks at 4, with room
    // either side (a busy machine only adds to both).
    const url = await sellerThat({ kind: 'slows-with-concurrency', baseMs: 5, perInFlightMs: 60 });
    const ctrf = join(dir.path, 'abort.ctrf.json');
    const { code, report, out } = await load(
      url,
      '--concurrency',
      '1,4,8',
      '--step-seconds',
      '0.3',
      '--slo',
      'p95<100ms',
      '--abort-on-fail',
      '--ctrf',
      ctrf,
    );
    expect(code).toBe(1);
    expect(report.steps.map((s) => s.slo_breaches)).toEqual([[], ['p95<100ms']]);
    expect(report.verdict.not_run).toEqual([8]);
    expect(out.stdout).toMatch(
      /FAIL: --slo p95<100ms breached at concurrency 4; --slo could not be checked at concurrency 8/,
    );
    const document = JSON.parse(await readFile(ctrf, 'utf8')) as CtrfReport;
    expect(ctrfSchemaErrors(document)).toEqual([]);
    const tests = document.results.tests.map((t) => [t.name, t.status]);
    expect(tests).toEqual([
      ['concurrency 1', 'passed'],
      ['concurrency 4', 'failed'],
      ['concurrency 8', 'skipped'],
      ['p95<100ms', 'failed'],
      ['capacity', 'passed'],
    ]);
  });
});
