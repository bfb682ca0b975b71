import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useTemporaryDirectory } from '../shared/testing/temporary-directory';
import { startMockSeller, type RunningMockSeller } from '../mock-seller/index';
import { readDefaultScenario } from '../mock-seller/default-scenario';
import type { ScenarioLoad } from '../contracts/schemas/scenario';
import type { LoadReport } from '../verification/load/load-report';
import { verifyCommand } from './verify-command';
import { runInProcess, startInProcess } from './testing/run-in-process';

// verify --load against the mock seller in-process, made slow and wrong through its scenario's
// load section: the knee of a 4-worker seller, and a cross-talk bug told apart from a failure
// a lone request shows.

const verify = (argv: string[]) => runInProcess(verifyCommand, argv);

const mocks: RunningMockSeller[] = [];
const dir = useTemporaryDirectory('verify-load');
const mockWith = async (load: ScenarioLoad) => {
  const mock = await startMockSeller({ scenario: { ...readDefaultScenario(), load } });
  mocks.push(mock);
  return mock;
};
afterAll(async () => {
  await Promise.all(mocks.map((m) => m.close()));
});

const loadArgs = (mock: RunningMockSeller, ...more: string[]) => [
  '--load',
  '--seller-url',
  `${mock.url}/seller`,
  '--states-url',
  `${mock.url}/__admin/provider-state`,
  '--seed',
  '42',
  ...more,
];

describe('verify --load', () => {
  it('finds the knee of a seller with 4 workers of 50 ms at 4 (± one step) for a deadline of 150 ms', async () => {
    const mock = await mockWith({ workers: 4, service_time: { ms: 50 } });
    const json = join(dir.path, 'knee.json');
    const junit = join(dir.path, 'knee.xml');
    const { code, ...out } = await verify(
      loadArgs(
        mock,
        '--concurrency',
        '1,2,4,8,16',
        '--step-seconds',
        '0.5',
        '--timeout',
        '150',
        '--json',
        json,
        '--junit',
        junit,
        '--min-concurrency',
        '2',
      ),
    );
    const report = JSON.parse(await readFile(json, 'utf8')) as LoadReport;
    // The bound, sized from the steps (10,000/s per request in flight up to 30,000/s, 0.5 s each): every
    // step runs whole.
    expect(out.stderr).toMatch(/at most 60000 requests \(the bound, sized from the steps\)/);
    expect(report.verdict.not_run).toEqual([]);
    // The verdict in the message: on a starved machine the knee drops, and this says to where.
    expect(code, out.stdout).toBe(0);
    expect([2, 4, 8]).toContain(report.verdict.knee);
    const top = report.steps.at(-1)!;
    // 16 in flight on 4 workers: 4 rounds of 50 ms, past the deadline.
    expect(top.healthy).toBe(false);
    expect(top.timeouts + (top.latency_ms.p99 >= 150 ? 1 : 0)).toBeGreaterThan(0);
    expect(report.steps[0].latency_ms.p50).toBeGreaterThanOrEqual(45);
    expect(report.steps[0].exchanges).toBeGreaterThan(5);
    expect(out.stdout).toMatch(/PASS: the knee is concurrency [248]/);
    expect(await readFile(junit, 'utf8')).toMatch(/<testcase classname="load" name="concurrency 16"[^]*?<failure/);

    // A fresh seller: the one above still works off the queue the abandoned requests left (as a real one would).
    const fresh = await mockWith({ workers: 4, service_time: { ms: 50 } });
    const gated = await verify(
      loadArgs(fresh, '--concurrency', '1,16', '--step-seconds', '0.5', '--timeout', '150', '--min-concurrency', '16'),
    );
    expect(gated.code).toBe(1);
    expect(gated.stdout).toMatch(/FAIL: --min-concurrency 16: not met, the knee is concurrency 1$/m);
  });

  it('against cross-talk above 8: the run FAILS whatever the knee, the rule first broken at 16 named, told apart as only under concurrency, and replayed', async () => {
    const mock = await mockWith({ service_time: { ms: 20 }, cross_talk: { above: 8, mix: 'item-id' } });
    const json = join(dir.path, 'talk.json');
    const replayDir = join(dir.path, 'replays');
    const { code, ...out } = await verify(
      loadArgs(
        mock,
        '--concurrency',
        '1,2,4,8,16',
        '--step-seconds',
        '0.4',
        '--timeout',
        '2000',
        '--mix',
        'item_inquiry=1',
        '--json',
        json,
        '--replay-dir',
        replayDir,
        '--html',
        join(dir.path, 'talk.html'),
      ),
    );
    const report = JSON.parse(await readFile(json, 'utf8')) as LoadReport;
    // Capacity held at every step (the knee is 16); correctness did not, so the run fails.
    expect(code).toBe(1);
    expect(report.verdict.knee).toBe(16);
    expect(report.verdict.ok).toBe(false);
    expect(out.stdout).toMatch(
      /^FAIL: [\d,]+ of [\d,]+ replies broke a reply rule — item.unknown-id ×[\d,]+ from concurrency 16 \(only under concurrency\).*; a seller that breaks a reply rule fails whatever its capacity/m,
    );
    expect(out.stdout).not.toMatch(/PASS/);
    // The HTML page is drawn from the same report: the knee marked on the charts, the rule named.
    const page = await readFile(join(dir.path, 'talk.html'), 'utf8');
    expect(page).toContain('knee: 16');
    expect(page).toContain(`<span data-testid="outcome">FAIL</span>: ${report.verdict.summary.slice('FAIL: '.length)}`);
    expect(page.match(/data-testid="outcome"/g)).toHaveLength(1); // the verdict said once
    expect(page).toContain('Reply rules broken');
    expect(page).toMatch(/<svg[^>]*>/);
    expect(page).toContain('item.unknown-id');
    expect(report.steps.map((s) => s.correct)).toEqual([true, true, true, true, false]);
    const talk = report.verdict.rules_under_concurrency.find((r) => r.rule === 'item.unknown-id');
    expect(talk).toMatchObject({ first_broken_at: 16, first_failure: { reproduces: 'only-under-concurrency' } });
    expect(talk!.first_failure.companions!.length).toBeGreaterThanOrEqual(8);
    expect(out.stdout).toMatch(/item.unknown-id held at concurrency 1 and broke from concurrency 16 on/);
    expect(out.stdout).toMatch(/only under concurrency: .*a lone curl would pass/);
    // The replay command, not a lone curl, sends it with the requests that were in flight beside it: broken again.
    const files = await readdir(replayDir);
    expect(files.length).toBeGreaterThan(0);
    expect(talk!.first_failure.replay).toContain(`federated-gateway replay ${replayDir}`);
    const file = join(
      replayDir,
      files.find((f) => f.startsWith('item.unknown-id'))!,
    );
    const replayed = await verify(['--replay', file]);
    expect(replayed.code).toBe(1);
    expect(replayed.stdout).toMatch(/broken again in round \d: item.unknown-id/);
  });

  it('stops within a second of SIGINT with a partial report', async () => {
    const mock = await mockWith({ service_time: { ms: 30 } });
    const json = join(dir.path, 'stopped.json');
    const running = startInProcess(
      verifyCommand,
      loadArgs(mock, '--concurrency', '2,4', '--step-seconds', '20', '--json', json),
    );
    await running.printed(/at most/, 'stderr');
    // Let the first step send some: the seller has answered a few more than the pre-flight.
    const answered = async () =>
      ((await (await fetch(`${mock.url}/__admin/journal`)).json()) as { entries: unknown[] }).entries.length;
    const before = await answered();
    await expect.poll(answered, { timeout: 10_000, interval: 20 }).toBeGreaterThan(before + 3);
    const t0 = performance.now();
    running.stop('SIGINT');
    const code = await running.exit;
    expect(performance.now() - t0).toBeLessThan(1000);
    expect(code).toBe(130);
    const report = JSON.parse(await readFile(json, 'utf8')) as LoadReport;
    expect(report.stopped).toBe('SIGINT');
    expect(report.steps).toHaveLength(1);
    expect(report.steps[0].partial).toBe(true);
    expect(report.steps[0].exchanges).toBeGreaterThan(0);
  });

  it('refuses bad usage naming the flag', async () => {
    const mock = await mockWith({});
    const help = await verify(['--load', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/--min-concurrency <n> +closed model: fail \(exit 1\) when the knee is below n/);
    expect(help.stdout).toMatch(/--rate <list> +open model/);
    for (const [args, message] of [
      [['--concurrency', '4,2'], /--concurrency must rise/],
      [['--mix', 'item_inquiry=x'], /--mix: 'item_inquiry=x' is not name=weight/],
      [['--concurrency', '1,2', '--max-concurrency', '8'], /not both/],
      [['--mix', 'place_order=5'], /--mix has only place_order, which needs --orders/],
      [['--rate', '0'], /--rate must be a whole number, 1–100000, got '0'/],
      [
        ['--rate', '50,100', '--concurrency', '1,2'],
        /--concurrency \(closed model\) and --rate \(open model\) do not go together/,
      ],
      [['--max-in-flight', '8'], /--max-in-flight belongs to the open model/],
      [['--slo', 'p95<<3'], /--slo: '<3' in 'p95<<3' is not a number/],
      [['--slo', 'p97<1s'], /--slo: unknown metric 'p97'/],
      [['--slo', 'dropped=0'], /nothing is dropped in the closed model/],
      [['--abort-on-fail'], /--abort-on-fail needs an --slo/],
    ] as const) {
      const run = await verify(loadArgs(mock, ...args));
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(message);
    }
  });
});

describe('verify --explore against a seller that cross-talks under concurrency', () => {
  it('tells a failure seen only under concurrency apart: not shrunk, no lone curl, a replay file with the requests beside it', async () => {
    const mock = await mockWith({ service_time: { ms: 15 }, cross_talk: { above: 3, mix: 'item-id' } });
    const replayDir = join(dir.path, 'explore-replays');
    const json = join(dir.path, 'explore.json');
    const args = [
      '--explore',
      '--seller-url',
      `${mock.url}/seller`,
      '--states-url',
      `${mock.url}/__admin/provider-state`,
      '--seed',
      '7',
    ];
    const junit = join(dir.path, 'explore.xml');
    const { code, ...out } = await verify([
      ...args,
      '--runs',
      '80',
      '--concurrency',
      '8',
      '--replay-dir',
      replayDir,
      '--json',
      json,
      '--junit',
      junit,
    ]);
    expect(code).toBe(1);
    const report = JSON.parse(await readFile(json, 'utf8')) as {
      failures: { rule: string; reproduces?: string; replay?: string; companions?: unknown[] }[];
    };
    const talk = report.failures.find((f) => f.rule === 'item.unknown-id');
    expect(talk).toMatchObject({ reproduces: 'only-under-concurrency' });
    expect(talk!.companions!.length).toBeGreaterThanOrEqual(3);
    expect(talk!.replay).toContain(`federated-gateway replay ${replayDir}`);
    const block = out.stdout.slice(out.stdout.indexOf('item.unknown-id'));
    expect(block).toMatch(
      /^item.unknown-id — [a-z-]+: broken in \d+ exchanges?; first at run \d+ \(seed 7\), ONLY UNDER CONCURRENCY/,
    );
    expect(block.split('\n\n')[0]).not.toMatch(/reproduce: curl/);
    expect(await readFile(junit, 'utf8')).toMatch(
      /name="item.unknown-id"[^]*?only under concurrency \(correct every time alone; a lone curl would pass\): npx federated-gateway replay/,
    );
  });
});
