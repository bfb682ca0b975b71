import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { readFileSync } from 'node:fs';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { useTemporaryDirectory } from '../../shared/testing/temporary-directory';
import { openGatewayStore } from '../../gateway/open-gateway-store';
import { createCertificationQueue } from '../../gateway/certification/certification-queue';
import { PACKAGE_ROOT, packagePath } from '../../shared/package-root';

// `npm run certification -- worker` as a process: it claims a job and runs it in a child of its
// own; SIGTERM hands the job back to the queue at once and stops that child (its connections to
// the seller close), and the worker exits 0. The seller here never answers, so the run is
// caught in the middle.

const dir = useTemporaryDirectory('certification-worker-process');
let seller: Server | undefined;
afterAll(() => seller?.closeAllConnections());

const connections = (server: Server) =>
  new Promise<number>((resolve, reject) => server.getConnections((error, n) => (error ? reject(error) : resolve(n))));

describe('npm run certification -- worker', () => {
  it('releases its job and stops its child on SIGTERM', { timeout: 120_000 }, async () => {
    seller = createServer(() => {}); // takes every request, answers none
    seller.listen(0, '127.0.0.1');
    await once(seller, 'listening');
    const sellerUrl = `http://127.0.0.1:${(seller.address() as AddressInfo).port}/seller`;
    const env: NodeJS.ProcessEnv = { ...process.env, GATEWAY_DATA_DIR: dir.path, NODE_ENV: 'development' };
    delete env.DATABASE_URL;

    const store = await openGatewayStore(env);
    await store.query(
      `INSERT INTO members (id, name, seller_url, timeout_ms, state_map) VALUES ('SLOW', 'Slow', $1, 60000, $2)`,
      [sellerUrl, readFileSync(packagePath('fixtures/state-maps/mock-seller.json'), 'utf8')],
    );
    const { job } = await createCertificationQueue({ store }).request('SLOW', 'test');
    await store.close(); // the embedded store admits one process: the worker's now

    const worker = spawn(process.execPath, ['--import', 'tsx', 'scripts/certification.ts', 'worker'], {
      cwd: PACKAGE_ROOT,
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let output = '';
    const claimed = new Promise<void>((resolve) =>
      worker.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        output += chunk;
        if (/job \d+: verify/.test(output)) resolve();
      }),
    );
    const exited = once(worker, 'exit') as Promise<[number | null, string | null]>;
    await Promise.race([claimed, exited]);
    expect(output).toMatch(new RegExp(`job ${job.id} of member SLOW claimed`));
    // The child is in the middle of the run: it holds a connection to the seller.
    while ((await connections(seller)) === 0) await new Promise((r) => setTimeout(r, 100));

    worker.kill('SIGTERM');
    const [code] = await exited;
    expect(code, output).toBe(0);
    expect(output).toMatch(new RegExp(`job ${job.id} released`));
    while ((await connections(seller)) > 0) await new Promise((r) => setTimeout(r, 100));

    const after = await openGatewayStore(env);
    try {
      const { rows } = await after.query<{ status: string; claimed_by: string | null; attempt: number }>(
        'SELECT status, claimed_by, attempt FROM certification_jobs WHERE id = $1',
        [job.id],
      );
      expect(rows).toEqual([{ status: 'queued', claimed_by: null, attempt: 1 }]);
      expect((await after.query('SELECT 1 FROM certificates')).rows).toEqual([]);
    } finally {
      await after.close();
    }
  });
});
