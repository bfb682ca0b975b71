import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../shared/testing/temporary-directory';
import { startMockSeller, type RunningMockSeller } from '../mock-seller/index';
import { verifyCommand } from './verify-command';
import { runInProcess, startInProcess } from './testing/run-in-process';

// `verify --explore` stopped and under limits: Ctrl-C stops it with the partial table
// (exit 130); --time-limit ends the sending as planned and still gives a verdict. In-process:
// the signal reaches the command as `io.signal`, as runAsProcess wires it (the real process's
// SIGINT is verify-command.test.ts's).

let mock: RunningMockSeller;
beforeAll(async () => {
  mock = await startMockSeller({ scenario: 'fixtures/scenarios/default.json' });
});
afterAll(async () => {
  await mock?.close();
});
afterEach(async () => {
  await fetch(`${mock.url}/__admin/reset`, { method: 'POST' });
});

const slowEverything = async (ms: number) => {
  const added = await fetch(`${mock.url}/__admin/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      service: '*',
      fault: { kind: 'latency', distribution: 'fixed', ms },
      probability: 1,
      seed: 1,
    }),
  });
  expect(added.status).toBe(201);
};
const explore = (...extra: string[]) => [
  '--explore',
  '--seller-url',
  `${mock.url}/seller`,
  '--states-url',
  `${mock.url}/__admin/provider-state`,
  ...extra,
];

describe('verify --explore', () => {
  it('stops on SIGINT with the partial table and says how many exchanges ran (exit 130)', async () => {
    await slowEverything(400);
    const run = startInProcess(verifyCommand, explore('--runs', '1000', '--seed', '3', '--concurrency', '2'));
    // A progress line means exchanges are under way.
    await expect.poll(() => run.stderr(), { timeout: 30_000 }).toMatch(/explore: \d+\/1000 exchanges/);
    run.stop('SIGINT');
    expect(await run.exit).toBe(130);
    const stdout = run.stdout();
    expect(stdout).toMatch(/STOPPED \(SIGINT\): \d+ of 1000 exchanges ran/);
    expect(stdout).toContain('Conformance (operation × rule)');
    expect(stdout).not.toContain('Failures');
  });

  it('--time-limit ends the sending as planned: a verdict on what ran (exit 0 on the honest seller)', async () => {
    await slowEverything(50);
    const { code, stdout } = await runInProcess(
      verifyCommand,
      explore('--runs', '1000', '--seed', '3', '--concurrency', '2', '--time-limit', '400ms'),
    );
    expect(stdout).toMatch(/PASSED \(time limit: \d+ of 1000 exchanges ran\)/);
    expect(code).toBe(0);
  });

  it('--states-url that is not our mock seller: a message saying to give --state-map (exit 2)', async () => {
    const { code, stderr } = await runInProcess(verifyCommand, [
      '--explore',
      '--seller-url',
      `${mock.url}/seller`,
      '--states-url',
      `${mock.url}/no-such/provider-state`,
    ]);
    expect(code).toBe(2);
    expect(stderr).toContain(
      `cannot read the catalogue: HTTP 404. --states-url with --explore reads our mock seller's scenario from ${mock.url}/no-such/scenario; for your own system give --state-map`,
    );
  });

  it('stops within 1 s during the pre-flight (a seller that never answers), and its JUnit has an error case saying so (exit 130)', async () => {
    // A seller that takes every request and never answers: the pre-flight's inquiry hangs.
    let arrived!: () => void;
    const reached = new Promise<void>((resolve) => (arrived = resolve));
    const silent: Server = createServer(() => arrived());
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const junit = join(temporaryDirectory('explore-stop'), 'results.xml');
    try {
      const run = startInProcess(verifyCommand, [
        '--explore',
        '--seller-url',
        `http://127.0.0.1:${(silent.address() as { port: number }).port}/seller`,
        '--state-map',
        'fixtures/state-maps/mock-seller-explore.json',
        '--runs',
        '50',
        '--junit',
        junit,
      ]);
      await reached;
      const started = Date.now();
      run.stop('SIGINT');
      expect(await run.exit).toBe(130);
      expect(Date.now() - started).toBeLessThan(1_000);
      const xml = readFileSync(junit, 'utf8');
      expect(xml).toMatch(
        /<testcase classname="explore\.run" name="run stopped by SIGINT before 50 of 50 exchanges were sent"/,
      );
      expect(xml).toMatch(
        /<error type="stopped" message="run stopped by SIGINT before 50 of 50 exchanges were sent"\/>/,
      );
      expect(xml).toMatch(/<testsuites [^>]*errors="1"/);
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
