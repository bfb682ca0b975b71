import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockSeller, type RunningMockSeller } from '../../mock-seller/index';
import { mintDevToken } from '../auth/dev-keys';
import { startNodeChild, killAllNodeChildren, type NodeChild } from '../testing/node-child';
import {
  startThrowawayPostgres,
  throwawayPostgresUnavailable,
  type ThrowawayPostgres,
} from '../testing/throwaway-postgres';

// GATEWAY_WORKERS: several gateway processes on one port over PostgreSQL, refused on the
// embedded store; a worker that dies is replaced while the others go on serving.

const unavailable = await throwawayPostgresUnavailable();

/** The primary's children are its workers (Linux: /proc lists a process's children). */
const childrenOf = (pid: number): number[] =>
  readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
    .trim()
    .split(/\s+/)
    .filter((p) => p !== '')
    .map(Number);

const startGateway = (env: Record<string, string>) =>
  startNodeChild({
    name: 'gateway',
    args: ['scripts/run-bundled.mjs', 'gateway'],
    env: { GATEWAY_HOST: '127.0.0.1', GATEWAY_PORT: '0', GATEWAY_LOG: 'off', ...env },
    ready: /gateway: listening on (http:\/\/[^\s,]+)/,
  });

describe('GATEWAY_WORKERS', () => {
  afterAll(() => killAllNodeChildren());

  // The two refusals are separate processes that exit at start: they run side by side.
  it.concurrent('is refused on the embedded store, saying why and what to do (exit 2)', async ({ expect }) => {
    const attempt = startGateway({ GATEWAY_WORKERS: '2', GATEWAY_DATA_DIR: 'memory', DATABASE_URL: '' });
    const error = await attempt.then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message).toContain('code 2');
    expect(error?.message).toContain('GATEWAY_WORKERS=2 needs DATABASE_URL');
    expect(error?.message).toContain('GATEWAY_WORKERS=1');
  });

  it.concurrent("is refused when it is neither a number nor 'auto'", async ({ expect }) => {
    const error = await startGateway({ GATEWAY_WORKERS: 'many', GATEWAY_DATA_DIR: 'memory' }).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message).toContain("GATEWAY_WORKERS must be a whole number ≥ 1 or auto, not 'many'");
  });

  describe.skipIf(unavailable !== undefined)(`on PostgreSQL${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
    let pg: ThrowawayPostgres;
    let seller: RunningMockSeller;
    let gateway: NodeChild;
    let stderr = '';

    beforeAll(async () => {
      pg = await startThrowawayPostgres();
      seller = await startMockSeller();
      // No balancer here to wait for: a short drain keeps the SIGTERM test short.
      gateway = await startGateway({
        GATEWAY_WORKERS: '2',
        GATEWAY_DRAIN_MS: '300',
        DATABASE_URL: pg.url,
        MOCK_SELLER_URL: `${seller.url}/seller`,
      });
      gateway.process.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    }, 120_000);
    afterAll(async () => {
      await gateway?.kill('SIGKILL');
      await seller?.close();
      await pg?.destroy();
    });

    const inquire = async () => {
      const response = await fetch(`${gateway.url}/json/federated/v3_2/item_inquiry`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${await mintDevToken()}` },
        body: JSON.stringify({ items: [{ id: '1', mfr_code: 'WIX', part_number: '51515' }] }),
      });
      return response.status;
    };
    const workerPids = () => [...(gateway.output() + stderr).matchAll(/worker (\d+) /g)].map((m) => Number(m[1]));
    const until = async (what: string, check: () => boolean, timeoutMs = 60_000) => {
      const giveUp = Date.now() + timeoutMs;
      while (!check()) {
        if (Date.now() > giveUp) throw new Error(`waited ${timeoutMs} ms for ${what}:\n${gateway.output()}${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    const listeningLines = () =>
      [...(gateway.output() + stderr).matchAll(/gateway: listening on (http:\/\/[^\s,]+)/g)].map((m) => m[1]);

    it('runs two worker processes on one port, both serving', async () => {
      await until('both workers to listen', () => listeningLines().length >= 2);
      expect(new Set(listeningLines())).toEqual(new Set([gateway.url]));
      expect(gateway.output() + stderr).toContain(`primary ${gateway.pid} started 2 workers`);
      const statuses = await Promise.all(Array.from({ length: 20 }, inquire));
      expect(statuses.every((s) => s === 200)).toBe(true);
    });

    it('replaces a worker that is killed, and serves on meanwhile', async () => {
      const before = listeningLines().length;
      const workers = childrenOf(gateway.pid);
      expect(workers).toHaveLength(2);
      process.kill(workers[0], 'SIGKILL');
      await until('the primary to notice', () =>
        (gateway.output() + stderr).includes(`worker ${workers[0]} exited (SIGKILL); starting another`),
      );
      expect(await inquire()).toBe(200);
      await until('a new worker to listen', () => listeningLines().length > before);
      expect(workerPids()).toContain(workers[0]);
      expect(await inquire()).toBe(200);
    });

    it('replaces every worker on SIGHUP, one at a time, answering every request meanwhile', async () => {
      const old = childrenOf(gateway.pid);
      process.kill(gateway.pid, 'SIGHUP');
      const statuses: number[] = [];
      const reloaded = () => stderr.includes(`reload done, ${old.length} workers replaced`);
      while (!reloaded()) {
        statuses.push(...(await Promise.all(Array.from({ length: 4 }, inquire))));
        if (statuses.length > 4_000) throw new Error(`the reload did not finish:\n${stderr}`);
      }
      expect(statuses.length).toBeGreaterThan(0);
      expect(statuses.filter((s) => s !== 200)).toEqual([]);
      // One at a time: the first new worker listened before the first old one was retired.
      const lines = stderr.slice(stderr.indexOf('SIGHUP, replacing'));
      expect(lines.indexOf('reload: worker')).toBeLessThan(lines.indexOf('reload: retiring worker'));
      const now = childrenOf(gateway.pid);
      expect(now).toHaveLength(old.length);
      for (const pid of old) expect(now).not.toContain(pid);
    });

    it('stops every worker on SIGTERM and exits 0', async () => {
      const workers = childrenOf(gateway.pid);
      expect(await gateway.kill('SIGTERM')).toEqual({ code: 0, signal: null });
      for (const pid of workers) expect(() => process.kill(pid, 0)).toThrow();
    });
  });
});
