import { execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockSeller, type RunningMockSeller } from '../mock-seller/index';

// The CLI as a vendor gets it: `npm pack` (which builds dist/ through prepack), the tarball
// installed into an empty directory, `federated-gateway …` run from there — no clone.

const run = (command: string, args: string[], cwd: string) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(command, args, { cwd, timeout: 170_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout, stderr }),
    );
  });

let dir: string;
let bin: string;
let mock: RunningMockSeller;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'installed-cli-'));
  const packed = await run('npm', ['pack', '--pack-destination', dir], process.cwd());
  expect(packed.code, packed.stderr).toBe(0);
  const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'))!;
  const app = join(dir, 'app');
  mkdirSync(app);
  const installed = await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', join(dir, tarball)], app);
  expect(installed.code, installed.stderr).toBe(0);
  bin = join(app, 'node_modules', '.bin', 'federated-gateway');
  mock = await startMockSeller();
}, 180_000);

afterAll(async () => {
  await mock?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

describe('the installed CLI', () => {
  it('verifies a seller from an installed tarball, with the pact it ships', async () => {
    const result = await run(bin, ['verify', '--seller-url', `${mock.url}/seller`, '--states-url', `${mock.url}/__admin/provider-state`], dir);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/PASSED: (\d+) of \1 interactions passed/);
    expect(result.stderr).toMatch(/node_modules\/federated-gateway-toolkit\/contracts\/pacts\/federated-gateway-seller-system\.json/);
  });

  it('explores a seller from an installed tarball (fast-check ships as a dependency), with the state map it ships', async () => {
    const result = await run(
      bin,
      [
        'verify',
        '--explore',
        '--seller-url',
        `${mock.url}/seller`,
        '--state-map',
        join(dir, 'app', 'node_modules', 'federated-gateway-toolkit', 'fixtures', 'state-maps', 'mock-seller-explore.json'),
        '--runs',
        '100',
        '--seed',
        '1',
      ],
      dir,
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('PASSED: 100 exchanges');
  });

  it('answers --help for itself and every command, and 2 for an unknown one', async () => {
    const top = await run(bin, ['--help'], dir);
    expect(top.code).toBe(0);
    for (const command of ['verify', 'rules-proxy', 'mock-seller', 'record']) {
      expect(top.stdout).toContain(`  ${command}`);
      const help = await run(bin, [command, '--help'], dir);
      expect(help.code, command).toBe(0);
      expect(help.stdout, command).toMatch(new RegExp(`^Usage: ${command}`));
    }
    const unknown = await run(bin, ['verfy'], dir);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown command 'verfy'");
  });

  it('starts the mock seller on its shipped default scenario and stops on SIGTERM', async () => {
    const child = spawn(bin, ['mock-seller', '--port', '0'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const exit = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
    await expect.poll(() => stdout, { timeout: 20_000 }).toMatch(/listening on (http:\/\/\S+) /);
    const url = /listening on (http:\/\/\S+) /.exec(stdout)![1];
    expect((await fetch(`${url}/health`)).status).toBe(200);
    expect(stdout).toMatch(/scenario 'default' from .*fixtures\/scenarios\/default\.json/);
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
  });
});
