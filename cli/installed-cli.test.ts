import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTemporaryDirectory } from '../shared/testing/temporary-directory';
import { startMockSeller, type RunningMockSeller } from '../mock-seller/index';

// The CLI as a vendor gets it: `npm pack` (which builds dist/ through prepack), the tarball
// installed into an empty directory, `federated-gateway …` run from there — no clone.

const run = (command: string, args: string[], cwd: string) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(command, args, { cwd, timeout: 170_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout, stderr }),
    );
  });

const dir = useTemporaryDirectory('installed-cli');
let app: string;
let bin: string;
let mock: RunningMockSeller;

beforeAll(async () => {
  const packed = await run('npm', ['pack', '--pack-destination', dir.path], process.cwd());
  expect(packed.code, packed.stderr).toBe(0);
  const tarball = readdirSync(dir.path).find((f) => f.endsWith('.tgz'))!;
  app = join(dir.path, 'app');
  mkdirSync(app);
  const installed = await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', join(dir.path, tarball)], app);
  expect(installed.code, installed.stderr).toBe(0);
  bin = join(app, 'node_modules', '.bin', 'federated-gateway');
  mock = await startMockSeller();
}, 180_000);

afterAll(async () => {
  await mock?.close();
});

describe('the installed CLI', () => {
  it('verifies a seller from an installed tarball, with the pact it ships', async () => {
    const result = await run(bin, ['verify', '--seller-url', `${mock.url}/seller`, '--states-url', `${mock.url}/__admin/provider-state`], dir.path);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/PASSED: (\d+) of \1 interactions passed/);
    expect(result.stderr).toMatch(/node_modules\/@federated-gateway\/toolkit\/contracts\/pacts\/federated-gateway-seller-system\.json/);
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
        join(dir.path, 'app', 'node_modules', '@federated-gateway', 'toolkit', 'fixtures', 'state-maps', 'mock-seller-explore.json'),
        '--runs',
        '100',
        '--seed',
        '1',
      ],
      dir.path,
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('PASSED: 100 exchanges');
  });

  it('answers --help for itself and every command, and 2 for an unknown one', async () => {
    const commands = ['verify', 'rules-proxy', 'mock-seller', 'record', 'states', 'pact-path', 'compat'];
    // The installed binary each time, all at once: each is a process that only prints and exits.
    const [top, unknown, ...helps] = await Promise.all([
      run(bin, ['--help'], dir.path),
      run(bin, ['verfy'], dir.path),
      ...commands.map((command) => run(bin, [command, '--help'], dir.path)),
    ]);
    expect(top.code).toBe(0);
    commands.forEach((command, i) => {
      expect(top.stdout).toContain(`  ${command}`);
      expect(helps[i].code, command).toBe(0);
      expect(helps[i].stdout, command).toMatch(new RegExp(`^Usage: ${command}`));
    });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown command 'verfy'");
  });

  it('starts the mock seller on its shipped default scenario and stops on SIGTERM', async () => {
    const child = spawn(bin, ['mock-seller', '--port', '0'], { cwd: dir.path, stdio: ['ignore', 'pipe', 'pipe'] });
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

  it('compares what the contract it ships holds: its pact against itself, and the buyer API from v3.1 to v3.2', async () => {
    const pact = join(app, 'node_modules', '@federated-gateway', 'toolkit', 'contracts', 'pacts', 'federated-gateway-seller-system.json');
    const [same, paths] = await Promise.all([
      run(bin, ['compat', '--base', pact, '--head', pact], app),
      run(bin, ['compat', '--paths', '/json/federated/v3_1/=/json/federated/v3_2/', '--json'], app),
    ]);
    expect(same.code, same.stderr).toBe(0);
    expect(same.stdout).toContain('No change to the contract.');
    expect(paths.code, paths.stderr).toBe(0);
    expect(paths.stderr).toMatch(/node_modules\/@federated-gateway\/toolkit\/contracts\/openapi\/buyer\.openapi\.json/);
    expect((JSON.parse(paths.stdout) as { summary: { safe: number } }).summary.safe).toBeGreaterThan(0);
  });

  it('prints where the shipped pact is (pact-path), inside the installed package', async () => {
    const result = await run(bin, ['pact-path'], app);
    expect(result.code, result.stderr).toBe(0);
    const path = result.stdout.trim();
    expect(path).toBe(join(app, 'node_modules', '@federated-gateway', 'toolkit', 'contracts', 'pacts', 'federated-gateway-seller-system.json'));
    expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({ consumer: { name: 'federated-gateway' }, provider: { name: 'seller-system' } });
  });

  // The guide's recipe, word for word but the ports and the request: under npx, $! is npm's pid
  // (npm → sh → the CLI), so the script signals the proxy's own pid from --pid-file, and npm
  // passes the proxy's exit code on.
  const guideScript = (body: string, signal: 'INT' | 'TERM') =>
    [
      `npx federated-gateway rules-proxy --upstream ${mock.url}/seller --report rules-${signal}.txt --pid-file rules-proxy.pid > proxy.out &`,
      'PROXY=$!',
      'for i in $(seq 300); do [ -s rules-proxy.pid ] && break; sleep 0.1; done',
      'URL=$(sed -n "s/^rules-proxy: listening on \\(http[^,]*\\),.*/\\1/p" proxy.out)',
      `curl -s -o /dev/null -H 'content-type: application/json' -d '${body}' "$URL/seller"`,
      `kill -${signal} "$(cat rules-proxy.pid)"`,
      'wait $PROXY; echo "exit $?"',
    ].join('\n');

  it('stops the proxy started with npx in the background as the guide says (kill -INT its pid file): exit 0 when every reply kept the rules', async () => {
    const honest = JSON.stringify({
      service: 'item_inquiry',
      integration: 'federated-gateway',
      terminal_id: 'T-01',
      locations: [{ id: 'L101', member: 'M100', account: 'A-1002' }],
      items: [{ id: 'a-1', mfr_code: 'GAT', part_number: '22433' }],
    });
    const result = await run('bash', ['-c', guideScript(honest, 'INT')], app);
    const report = readFileSync(join(app, 'rules-INT.txt'), 'utf8');
    expect(result.stdout.trim(), report).toBe('exit 0');
    expect(report).toMatch(/: 1 exchanges, 0 not passing the reply rules/);
    expect(existsSync(join(app, 'rules-proxy.pid'))).toBe(false);
  });

  it('… and on SIGTERM exits by what it found (1: a reply it could not pass), not 143', async () => {
    const result = await run('bash', ['-c', guideScript(JSON.stringify({ service: 'item_inquiry' }), 'TERM')], app);
    const report = readFileSync(join(app, 'rules-TERM.txt'), 'utf8');
    expect(result.stdout.trim(), report).toBe('exit 1');
    expect(report).toMatch(/: 1 exchanges, 1 not passing the reply rules/);
  });

  it('stops the proxy (no orphan) when the script kills npx itself, reporting what it saw', async () => {
    const script = [
      `npx federated-gateway rules-proxy --upstream ${mock.url}/seller --report killed.txt --pid-file killed.pid > /dev/null 2>&1 &`,
      'for i in $(seq 300); do [ -s killed.pid ] && break; sleep 0.1; done',
      'cat killed.pid',
      'kill %1; wait %1',
    ].join('\n');
    const result = await run('bash', ['-c', script], app);
    const pid = Number(result.stdout.trim());
    expect(pid).toBeGreaterThan(1);
    // Its launchers are gone: the proxy notices within a second or so, writes its report and exits.
    await expect.poll(() => existsSync(join(app, 'killed.pid')), { timeout: 5_000, interval: 100 }).toBe(false);
    await expect.poll(() => alive(pid), { timeout: 5_000, interval: 100 }).toBe(false);
    expect(readFileSync(join(app, 'killed.txt'), 'utf8')).toMatch(/: 0 exchanges/);
  });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
