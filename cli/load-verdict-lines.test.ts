import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useLoadRuns } from './testing/load-runs';

// The load command's verdict line as a vendor reads it: a gate named only when given, and a run
// that measured no step whole says NOT MEASURED (exit 1), never PASS. No wall-clock margin is
// asserted: the cuts here fall in a first step far longer than the limit.

const { dir, mockWith, sellerThat, loadCommand } = useLoadRuns('load-verdict-lines');
const verdictLine = (stdout: string) => stdout.trim().split('\n').at(-1);

describe('load: no verdict about a flag that was not given', () => {
  it('a time limit that ends the run in its first step: NOT MEASURED, exit 1, no gate named', async () => {
    const url = await mockWith({ service_time: { ms: 5 } });
    const html = join(dir.path, 'not-measured.html');
    const run = await loadCommand(
      url,
      '--concurrency',
      '1,2',
      '--step-seconds',
      '30',
      '--time-limit',
      '300ms',
      '--html',
      html,
    );
    expect(run.code).toBe(1);
    expect(verdictLine(run.out.stdout)).toMatch(
      /^NOT MEASURED: the time limit \(--time-limit 0\.3s\) ended the run during its first step \(concurrency 1\): capacity not stated; correctness: no reply broke a rule in the [\d,]+ replies checked$/,
    );
    expect(run.out.stdout).not.toMatch(/--min-concurrency|PASS/);
    expect(run.report.verdict).toMatchObject({ ok: false, gate: { given: false, held: false } });
    expect(await readFile(html, 'utf8')).toContain(
      '<span data-testid="outcome">NOT MEASURED</span>: the time limit (--time-limit 0.3s) ended the run during its first step',
    );
  });

  it('the same cut with a gate given: FAIL in the gate’s words (not judged), never NOT MEASURED', async () => {
    const url = await mockWith({ service_time: { ms: 5 } });
    const args = ['--concurrency', '1,2', '--step-seconds', '30', '--time-limit', '300ms', '--min-concurrency', '2'];
    const run = await loadCommand(url, ...args);
    expect(run.code).toBe(1);
    expect(verdictLine(run.out.stdout)).toBe(
      'FAIL: --min-concurrency 2: not judged, no step was measured whole (the time limit (--time-limit 0.3s) was reached during concurrency 1)',
    );
  });

  it('a request budget spent in the first step: NOT MEASURED, in the budget’s words', async () => {
    const url = await mockWith({ service_time: { ms: 5 } });
    const run = await loadCommand(url, '--concurrency', '1,2', '--step-seconds', '30', '--max-requests', '5');
    expect(run.code).toBe(1);
    expect(verdictLine(run.out.stdout)).toBe(
      'NOT MEASURED: the request budget (--max-requests 5) ended the run during its first step (concurrency 1): capacity not stated; correctness: no reply broke a rule in the 5 replies checked',
    );
  });

  it('PASS names no gate nobody set; a gate given is said met, or cannot be met above the ramp', async () => {
    const url = await mockWith({ service_time: { ms: 1 } });
    const quick = ['--concurrency', '1,2', '--step-seconds', '0.3'];
    const plain = await loadCommand(url, ...quick);
    expect(plain.code).toBe(0);
    expect(verdictLine(plain.out.stdout)).toBe('PASS: the knee is concurrency 2');
    const met = await loadCommand(url, ...quick, '--min-concurrency', '2');
    expect(met.code).toBe(0);
    expect(verdictLine(met.out.stdout)).toBe('PASS: the knee is concurrency 2; --min-concurrency 2: met');
    const above = await loadCommand(url, ...quick, '--min-concurrency', '4');
    expect(above.code).toBe(1);
    expect(verdictLine(above.out.stdout)).toBe(
      "FAIL: --min-concurrency 4: cannot be met, the ramp's highest step is concurrency 2 (capacity: the knee is concurrency 2)",
    );
  });
});

describe('load: the headline counts what failed', () => {
  it('broken rules: how many replies of how many checked, each rule with its count, said once in text and HTML', async () => {
    const url = await sellerThat({ kind: 'cross-talks', above: 3, delayMs: 20 });
    const html = join(dir.path, 'talk.html');
    const run = await loadCommand(url, '--concurrency', '1,4', '--step-seconds', '0.3', '--html', html);
    expect(run.code).toBe(1);
    const { steps, verdict } = run.report;
    const broken = steps.reduce((n, s) => n + s.replies_broken, 0);
    const checked = steps.reduce((n, s) => n + s.exchanges - s.timeouts - s.errors, 0);
    expect(broken).toBeGreaterThan(0);
    const rules = verdict.rules_broken
      .map((r) => `${r.rule} ×${r.exchanges.toLocaleString('en-US')} from concurrency 4 (only under concurrency)`)
      .join(', ');
    expect(verdictLine(run.out.stdout)).toBe(
      `FAIL: ${broken.toLocaleString('en-US')} of ${checked.toLocaleString('en-US')} replies broke a reply rule — ${rules}; ` +
        'a seller that breaks a reply rule fails whatever its capacity (capacity: the knee is concurrency 4)',
    );
    const page = await readFile(html, 'utf8');
    expect(page).toContain(`<span data-testid="outcome">FAIL</span>: ${verdict.summary.slice('FAIL: '.length)}`);
    expect(page.split(`${broken.toLocaleString('en-US')} of ${checked.toLocaleString('en-US')} replies`)).toHaveLength(
      2,
    );
  });
});
