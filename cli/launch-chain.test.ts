import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockSeller, type RunningMockSeller } from '../mock-seller/index';
import { chainBroken, launchChain } from './launch-chain';

// A command started by npm whose launcher is gone must stop rather than run on as an orphan,
// including when the launcher died before the command had even loaded (tsx compiles first).

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

let mock: RunningMockSeller;
beforeAll(async () => {
  mock = await startMockSeller();
});
afterAll(async () => {
  await mock?.close();
});

/** Starts the rules proxy from a shell that exits at once: the proxy is reparented before it runs a line. */
function startOrphan(env: NodeJS.ProcessEnv): number {
  const command = `${process.execPath} --import tsx scripts/rules-proxy.ts --upstream ${mock.url}/seller >/dev/null 2>&1 & echo $!`;
  return Number(execFileSync('sh', ['-c', command], { env: { ...process.env, ...env }, encoding: 'utf8' }).trim());
}

describe('the launch chain', () => {
  it('is our parent, then each launcher above it, and is whole while they live', () => {
    const chain = launchChain();
    expect(chain[0]).toBe(process.ppid);
    expect(chainBroken(chain)).toBe(false);
    expect(chainBroken(chain, process.ppid + 1)).toBe(true);
  });

  it.runIf(process.platform === 'linux')(
    'stops a command started by npm whose launcher died while it loaded',
    async () => {
      const started = Date.now();
      const pid = startOrphan({ npm_command: 'run-script', npm_lifecycle_event: 'rules-proxy' });
      await expect.poll(() => alive(pid), { timeout: 20_000, interval: 100 }).toBe(false);
      expect(Date.now() - started).toBeLessThan(20_000);
    },
  );

  it.runIf(process.platform === 'linux')(
    'leaves alone a command not started by npm whose parent is init (a container, nohup)',
    async () => {
      const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('npm_')));
      const pid = execFileSync(
        'sh',
        [
          '-c',
          `${process.execPath} --import tsx scripts/rules-proxy.ts --upstream ${mock.url}/seller >/dev/null 2>&1 & echo $!`,
        ],
        {
          env,
          encoding: 'utf8',
        },
      ).trim();
      try {
        // It must get as far as listening and stay: poll its listening socket.
        await expect
          .poll(() => execFileSync('ss', ['-ltnpH'], { encoding: 'utf8' }).includes(`pid=${pid},`), {
            timeout: 20_000,
            interval: 200,
          })
          .toBe(true);
        expect(alive(Number(pid))).toBe(true);
      } finally {
        process.kill(Number(pid), 'SIGTERM');
      }
      await expect.poll(() => alive(Number(pid)), { timeout: 10_000, interval: 100 }).toBe(false);
    },
  );
});
