import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { mintDevToken } from '../gateway/auth/dev-keys';
import { PACKAGE_ROOT, packagePath } from '../shared/package-root';
import { useTemporaryDirectory } from '../shared/testing/temporary-directory';

// npm start on ports of its own choosing (0 for each: any free port) follows its settings: the
// demo's members call the mock seller where it listens, on a fresh data directory and again on
// the same one when the mock seller's port has changed — an item inquiry answers 200 / 2000
// both times. (With MOCK_SELLER_PORT=29090 the members used to keep calling 9090: 503.)

const dir = useTemporaryDirectory('start-demo');

/** npm start's launcher, as `npm start` runs it, until it prints the gateway's address. */
async function startDemo() {
  const child = spawn(process.execPath, [packagePath('scripts', 'run-bundled.mjs'), 'start'], {
    cwd: PACKAGE_ROOT,
    env: {
      ...process.env,
      DATABASE_URL: '',
      GATEWAY_DATA_DIR: dir.path,
      GATEWAY_PORT: '0',
      INTERNAL_PORT: '0',
      MOCK_SELLER_PORT: '0',
      GATEWAY_LOG: 'off',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout.resume();
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
  await expect.poll(() => stderr, { timeout: 30_000, interval: 50 }).toMatch(/gateway +(http:\/\/\S+)/);
  const gateway = /gateway +(http:\/\/\S+)/.exec(stderr)![1];
  return {
    gateway,
    stderr: () => stderr,
    stop: async () => {
      child.kill('SIGINT');
      return exited;
    },
  };
}

async function inquire(gateway: string) {
  const token = await mintDevToken();
  const res = await fetch(`${gateway}/json/federated/v3_2/item_inquiry`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ items: [{ id: '1', mfr_code: 'WIX', part_number: '51515' }] }),
  });
  return { status: res.status, body: (await res.json()) as { status_code: number } };
}

describe('npm start on ports of its own choosing', () => {
  it('answers 200 / 2000 on a fresh data directory, and again after the mock seller moved to another port', async () => {
    const first = await startDemo();
    try {
      expect(await inquire(first.gateway)).toMatchObject({ status: 200, body: { status_code: 2000 } });
    } finally {
      expect(await first.stop()).toBe(0);
    }
    const again = await startDemo();
    try {
      expect(again.stderr()).toMatch(
        /start: the demo's members .* now call http:\/\/127\.0\.0\.1:\d+\/seller \(they called http:\/\/127\.0\.0\.1:\d+\/seller\)/,
      );
      expect(await inquire(again.gateway)).toMatchObject({ status: 200, body: { status_code: 2000 } });
    } finally {
      expect(await again.stop()).toBe(0);
    }
  });
});
