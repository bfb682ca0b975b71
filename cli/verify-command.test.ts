import { execFile, execFileSync, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CtrfReport } from '../verification/reports/report-as-ctrf';
import { ctrfSchemaErrors } from '../verification/testing/ctrf-schema';
import { describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../shared/testing/temporary-directory';
import { readPact } from '../contracts/pact/pact-file';
import { PACT_FILE } from '../contracts/pact/pact-names';
import { useMockSeller } from '../mock-seller/testing/use-mock-seller';
import { runInProcess } from './testing/run-in-process';
import { verifyCommand } from './verify-command';

/** The start of every ANSI colour sequence. */
const ESC = '\u001b[';

// `verify` as a vendor's CI runs it: exit codes, the report on stdout, progress on stderr,
// JUnit XML on disk; slow sellers, Ctrl-C and a vanished parent. Behaviour runs in-process
// through `(argv, io)`; the real process is kept for what only it has: one smoke run (its
// stdout free of the Pact core's own lines), SIGINT and an orphaned run.

const VERIFY = [process.execPath, '--import', 'tsx', 'scripts/verify-seller.ts'] as const;
const TOTAL = readPact(PACT_FILE).interactions.length;

/** `verify` in-process: what the process would print and exit with. */
const verify = (args: string[], env: NodeJS.ProcessEnv = {}, tty = false) =>
  runInProcess(verifyCommand, args, { env, stdoutIsTTY: tty, stderrIsTTY: tty });

/** `verify` as a real process (`npm run verify`). */
function verifyProcess(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      VERIFY[0],
      [...VERIFY.slice(1), ...args],
      { timeout: 90_000, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, ...env } },
      (error, stdout, stderr) =>
        resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout, stderr }),
    );
  });
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const childrenOf = (pid: number): number[] => {
  try {
    return execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .map((l) => Number(l.trim()))
      .filter((n) => n > 0);
  } catch {
    return [];
  }
};

const mock = useMockSeller();

const addFault = async (service: string, fault: Record<string, unknown>) => {
  const response = await fetch(`${mock.url}/__admin/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ service, fault }),
  });
  expect(response.status).toBe(201);
};
const seller = () => ['--seller-url', `${mock.url}/seller`, '--states-url', `${mock.url}/__admin/provider-state`];

/**
 * The committed pact cut to its first interaction: for runs about how verify prints, one verifier process,
 * not fifteen.
 */
function firstInteractionPact(): string {
  const pact = JSON.parse(readFileSync(PACT_FILE, 'utf8')) as { interactions: unknown[] };
  pact.interactions = pact.interactions.slice(0, 1);
  const file = join(temporaryDirectory('verify-pact'), 'first.json');
  writeFileSync(file, JSON.stringify(pact));
  return file;
}

describe('npm run verify', () => {
  it('exits 1 on a broken seller: both verdicts per line on stderr, the rule in the report and in the JUnit file', async () => {
    const out = temporaryDirectory('verify');
    const junit = join(out, 'results.xml');
    const ctrf = join(out, 'results.ctrf.json');
    // The fault travels as a header on every request, the way a vendor adds its own auth.
    const run = await verify([
      ...seller(),
      '--header',
      'x-mock-fault: wrong-original-mfr',
      '--junit',
      junit,
      '--ctrf',
      ctrf,
    ]);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toMatch(
      new RegExp(
        `\\[\\d+/${TOTAL}\\] FAIL an item inquiry for a part with an alternate — pact: passed · reply rules: BROKEN: alternate\\.original-mfr`,
      ),
    );
    expect(run.stdout).toContain("expected: 'MOT'   found: 'MOT-WRONG'");
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toMatch(new RegExp(`<testsuite name="seller-system verification" tests="${TOTAL}" failures="\\d+"`));
    expect(xml).toContain(
      'alternate.original-mfr [id alternate-1] /items/1/original_mfr: original_mfr &apos;MOT-WRONG&apos; differs ' +
        'from the requested mfr_code &apos;MOT&apos; (expected &apos;MOT&apos;, found &apos;MOT-WRONG&apos;)',
    );
    expect(xml).not.toContain('undefined');
    // CTRF says what JUnit says: the same failures, the interaction with the broken rule among them.
    const document = JSON.parse(readFileSync(ctrf, 'utf8')) as CtrfReport;
    expect(ctrfSchemaErrors(document)).toEqual([]);
    expect(document.results.summary.tests).toBe(TOTAL);
    expect(document.results.summary.failed).toBe(Number(/failures="(\d+)"/.exec(xml)![1]));
    expect(document.results.tests.find((t) => t.name === 'an item inquiry for a part with an alternate')).toMatchObject(
      {
        status: 'failed',
        message: expect.stringContaining('alternate.original-mfr'),
      },
    );
  });

  it("keeps stdout free of colour and of the Pact core's own lines, unless asked (spawned smoke run)", async () => {
    // A real process: a native Pact core would write to fd 1 itself, past any `io`.
    const run = await verifyProcess(seller(), { FORCE_COLOR: '1' });
    expect(run.code, run.stdout).toBe(0);
    expect(run.stdout).toContain(`PASSED: ${TOTAL} of ${TOTAL} interactions passed`);
    expect(run.stdout + run.stderr).not.toContain(ESC);
    expect(run.stdout).not.toMatch(/Ok\(|pact-core@|Verifying a pact between|WARN|ERROR/);
    const verbose = await verify([...seller(), '--pact', firstInteractionPact(), '--verbose']);
    expect(verbose.stderr).toMatch(/ {2}pact \| .*Verifying a pact between federated-gateway and seller-system/);
  });

  it('colours only on a terminal, and not with NO_COLOR', async () => {
    // runAsProcess passes the streams' isTTY; the spawned smoke run above covers a non-terminal.
    const pact = ['--pact', firstInteractionPact()];
    expect((await verify([...seller(), ...pact], {}, true)).stdout).toContain(`${ESC}32mPASSED`);
    const noColour = await verify([...seller(), ...pact], { NO_COLOR: '1' }, true);
    expect(noColour.stdout + noColour.stderr).not.toContain(ESC);
  });

  it('reports a seller slower than --timeout on the interactions it belongs to, with how late it answered', async () => {
    await addFault('place_order', { kind: 'latency', ms: 1_500 });
    const json = join(temporaryDirectory('verify'), 'report.json');
    const junit = join(temporaryDirectory('verify'), 'junit.xml');
    const run = await verify([...seller(), '--timeout', '500', '--json', json, '--junit', junit]);
    expect(run.code).toBe(1);
    const report = JSON.parse(readFileSync(json, 'utf8')) as {
      interactions: {
        description: string;
        pact: string;
        problems: string[];
        pactMismatches: unknown[];
        exchange?: Record<string, unknown>;
      }[];
    };
    // A timed-out exchange names the limit, never a status the seller did not send within it.
    expect(run.stdout).toMatch(/\(no answer within 500 ms \(the limit\); answered HTTP 200 after 1[5-9]\d\d ms\)/);
    expect(run.stdout).not.toMatch(/an order[^\n]*\n[^\n]*\n[^\n]*HTTP 200, 5\d\d ms/);
    expect(readFileSync(junit, 'utf8')).toContain('exchange: no answer within 500 ms (the limit)');
    const timedOut = report.interactions.find((i) => i.description.startsWith('an order'))!.exchange!;
    expect(timedOut.noAnswerWithinMs).toBe(500);
    expect(timedOut.status).toBeUndefined();
    // Exactly the pact's interactions: no phantom entries, no repeats.
    expect(report.interactions.map((i) => i.description).sort()).toEqual(
      readPact(PACT_FILE)
        .interactions.map((i) => i.description)
        .sort(),
    );
    const orders = report.interactions.filter((i) => i.description.startsWith('an order'));
    expect(orders).toHaveLength(3);
    for (const order of orders) {
      expect(order.problems[0]).toBe('no answer within 500 ms (the limit, --timeout)');
      expect(order.problems[1]).toMatch(/^answered after 1[5-9]\d\d ms, over the limit of 500 ms$/);
      // The 504 was the kit's own: no Pact mismatch about it, and no claim that nothing arrived.
      expect(order.pactMismatches).toEqual([]);
      expect(order.problems.join()).not.toMatch(/no request for this interaction reached the seller|Headers Timeout/);
    }
    expect(
      report.interactions
        .filter((i) => !i.description.startsWith('an order'))
        .every((i) => i.problems.length === 0 && i.pact === 'passed'),
    ).toBe(true);
    expect(run.stdout).toContain(`FAILED: 3 of ${TOTAL} interactions failed, ${TOTAL - 3} passed`);
    const progress = run.stderr.split('\n').filter((l) => /^\[\d+\/\d+\]/.test(l));
    expect(progress).toHaveLength(TOTAL);
    expect(new Set(progress.map((l) => l.replace(/ — .*/, '').replace(/^\[\d+\/\d+\] \w+ /, ''))).size).toBe(TOTAL);
  });

  it('stops on SIGINT: the verifier child ends, the partial report says what did not run, its JUnit is an error, exit 130', async () => {
    await addFault('item_inquiry', { kind: 'latency', ms: 20_000 });
    const junit = join(temporaryDirectory('verify'), 'stopped.xml');
    const child = spawn(VERIFY[0], [...VERIFY.slice(1), ...seller(), '--junit', junit], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exit = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
    // The first item inquiry is under way (the two invoice interactions come first).
    await expect.poll(() => stderr, { timeout: 30_000 }).toMatch(/\[2\/\d+\]/);
    // The verifier for that inquiry is a child of the command once it has been spawned.
    await expect.poll(() => childrenOf(child.pid!).length, { timeout: 10_000, interval: 50 }).toBeGreaterThan(0);
    const verifiers = childrenOf(child.pid!);
    expect(verifiers.length).toBeGreaterThan(0);
    const started = Date.now();
    child.kill('SIGINT');
    expect(await exit).toBe(130);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(verifiers.filter(alive)).toEqual([]);
    expect(stdout).toMatch(/STOPPED by SIGINT: \d+ of \d+ interactions ran, \d+ passed; not run: '/);
    expect(stdout).toContain('NOT RUN  an order for a part in stock, received');
    // A cancelled run must never read as green in CI: an error case says why, errors > 0.
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toMatch(
      new RegExp(`<error type="stopped" message="run stopped by SIGINT before \\d+ of ${TOTAL} interactions ran"/>`),
    );
    expect(xml).toMatch(/<testsuite [^>]*errors="1" skipped="\d+"/);
  });

  it('stops when its parent is killed (timeout, a cancelled CI job) instead of running on as an orphan', async () => {
    await addFault('item_inquiry', { kind: 'latency', ms: 20_000 });
    // A shell stands in for npm: it starts verify and is then killed outright.
    const shell = spawn('sh', ['-c', `${VERIFY.join(' ')} ${seller().join(' ')} >/dev/null 2>&1 & echo $!; wait`], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const pid = await new Promise<number>((resolve) =>
      shell.stdout.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim()))),
    );
    // Under way: its Pact verifier child is waiting on the slow seller.
    await expect.poll(() => childrenOf(pid).length, { timeout: 30_000, interval: 100 }).toBeGreaterThan(0);
    const verifiers = childrenOf(pid);
    expect(verifiers.length).toBeGreaterThan(0);
    shell.kill('SIGKILL');
    await expect.poll(() => alive(pid), { timeout: 10_000, interval: 200 }).toBe(false);
    await expect.poll(() => verifiers.filter(alive), { timeout: 5_000, interval: 200 }).toEqual([]);
  });

  it('exits 2 naming what is wrong when the seller URL is missing, and when the seller cannot be reached', async () => {
    const run = await verify([]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      "verify: --seller-url is required\nRun 'federated-gateway verify --help' for the options.\n",
    );
    const down = await verify(['--seller-url', 'http://127.0.0.1:1/seller']);
    expect(down.code).toBe(2);
    expect(down.stderr).toContain(
      'verify: your system at http://127.0.0.1:1/seller cannot be reached: 127.0.0.1:1 cannot be reached (ECONNREFUSED)',
    );
    expect(down.stderr).not.toMatch(/\n\s+at /);
  });
});
