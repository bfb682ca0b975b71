import { spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packagePath } from '../../shared/package-root';
import { startMockSeller, type RunningMockSeller } from '../../mock-seller/index';
import { mintDevToken } from '../auth/dev-keys';
import { mintToken } from '../auth/mint-token';
import { registerKey, revokeKey } from '../directory/api-keys';
import { createStore } from '../store/create-store';
import type { Store } from '../store/store';
import { seedDirectory } from '../directory/directory-seed';
import { startGatewayProcess, type GatewayProcess } from '../testing/gateway-process';
import { killAllNodeChildren } from '../testing/node-child';
import { freePort, startThrowawayPostgres, throwawayPostgresUnavailable, type ThrowawayPostgres } from '../testing/throwaway-postgres';

// Beyond one machine: two gateway instances (processes of their own) on one PostgreSQL behind
// HAProxy (Debian's haproxy, with the configuration docs/gateway.md gives:
// gateway/cluster/haproxy.cfg). Requests spread over both; an order retried through the other
// instance is placed once; a key revoked (in the store, as `npm run keys -- revoke` does) is
// refused by both at once.

const V3_2 = '/json/federated/v3_2';
const haproxyMissing = await new Promise<string | undefined>((resolve) => {
  const probe = spawn('haproxy', ['-v'], { stdio: 'ignore' });
  probe.once('error', () => resolve('haproxy not on PATH (.ci/run installs it)'));
  probe.once('exit', (code) => resolve(code === 0 ? undefined : `haproxy -v exited ${code}`));
});
const unavailable = haproxyMissing ?? (await throwawayPostgresUnavailable());

describe.skipIf(unavailable !== undefined)(`two gateway instances behind HAProxy${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
  let pg: ThrowawayPostgres;
  let seller: RunningMockSeller;
  let store: Store;
  const gateways: GatewayProcess[] = [];
  let haproxy: ChildProcess;
  let lb: string;
  let haproxyOutput = '';

  beforeAll(async () => {
    pg = await startThrowawayPostgres();
    seller = await startMockSeller();
    store = await createStore({ databaseUrl: pg.url });
    await seedDirectory(store, { sellerUrl: `${seller.url}/seller` });
    // Both start at once: each is a Node process compiling the gateway, seconds on a busy machine.
    gateways.push(...(await Promise.all([1, 2].map(() => startGatewayProcess({ env: { DATABASE_URL: pg.url, GATEWAY_SEED: 'off', GATEWAY_LOG: 'off' } })))));
    const port = await freePort();
    lb = `http://127.0.0.1:${port}`;
    haproxy = spawn('haproxy', ['-db', '-f', packagePath('gateway', 'cluster', 'haproxy.cfg')], {
      env: { ...process.env, FGW_LB_BIND: `127.0.0.1:${port}`, FGW_GATEWAY_1: new URL(gateways[0].url).host, FGW_GATEWAY_2: new URL(gateways[1].url).host },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    haproxy.stdout!.on('data', (chunk: Buffer) => (haproxyOutput += chunk.toString()));
    haproxy.stderr!.on('data', (chunk: Buffer) => (haproxyOutput += chunk.toString()));
    // Ready once both instances pass their health check and answer through the balancer.
    const giveUp = Date.now() + 30_000;
    for (;;) {
      const served = new Set<string>();
      for (let i = 0; i < 4; i++) {
        const answer = await fetch(`${lb}/health`).catch(() => undefined);
        if (answer?.status === 200) served.add(answer.headers.get('x-served-by') ?? '');
      }
      if (served.size === 2) break;
      if (Date.now() > giveUp) throw new Error(`HAProxy did not balance over both gateways within 30 s:\n${haproxyOutput}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }, 180_000);

  afterAll(async () => {
    haproxy?.kill('SIGKILL');
    await killAllNodeChildren();
    await store?.close().catch(() => {});
    await seller?.close();
    await pg?.destroy();
  });

  const post = async (path: string, body: unknown, token: string, headers: Record<string, string> = {}) => {
    const response = await fetch(`${lb}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, ...headers },
      body: JSON.stringify(body),
    });
    return {
      status: response.status,
      servedBy: response.headers.get('x-served-by'),
      replayed: response.headers.get('idempotent-replayed'),
      body: (await response.json()) as { status_code: number },
    };
  };
  const inquiry = { items: [{ id: '1', mfr_code: 'WIX', part_number: '51515' }] };

  it('spreads requests over both instances', async () => {
    const token = await mintDevToken();
    const answers = await Promise.all(Array.from({ length: 10 }, () => post(`${V3_2}/item_inquiry`, inquiry, token)));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(new Set(answers.map((a) => a.servedBy))).toEqual(new Set(['gateway-1', 'gateway-2']));
  });

  it('places an order retried through the other instance once', async () => {
    const token = await mintDevToken();
    const order = {
      purchase_order_number: 'PO-TWO-INSTANCES',
      order_type: 1,
      items: [{ id: '1', mfr_code: 'WIX', part_number: '51515', location_id: 'L101', quantity_ordered: 1 }],
    };
    const first = await post(`${V3_2}/place_order`, order, token);
    let retry = await post(`${V3_2}/place_order`, order, token);
    // Round robin sends the retry to the other instance; make sure it did.
    if (retry.servedBy === first.servedBy) retry = await post(`${V3_2}/place_order`, order, token);
    expect([first.status, first.body.status_code]).toEqual([200, 2000]);
    expect(retry.servedBy).not.toBe(first.servedBy);
    expect([retry.status, retry.body, retry.replayed]).toEqual([200, first.body, 'true']);
    const journal = (await (await fetch(`${seller.url}/__admin/journal?service=place_order`)).json()) as {
      entries: { request: { purchase_order_number: string } }[];
    };
    expect(journal.entries.filter((e) => e.request.purchase_order_number === order.purchase_order_number)).toHaveLength(1);
  });

  it('refuses a revoked key on both instances at once', async () => {
    const { publicKey, privateKey } = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
    await registerKey(store, { clientId: 'lb-buyer', kid: 'lb-key-1', publicKeyPem: publicKey, usernames: ['demo'] });
    const token = await mintToken({ privateKey, kid: 'lb-key-1', issuer: 'lb-buyer', subject: 'demo' });
    // Both instances accept the new key (its NOTIFY dropped both caches)…
    const before = await Promise.all(Array.from({ length: 6 }, () => post(`${V3_2}/item_inquiry`, inquiry, token)));
    expect(before.map((a) => a.status)).toEqual(Array(6).fill(200));
    expect(new Set(before.map((a) => a.servedBy)).size).toBe(2);
    // …and both refuse it once it is revoked.
    await revokeKey(store, 'lb-key-1');
    const giveUp = Date.now() + 5_000;
    let after = await Promise.all(Array.from({ length: 6 }, () => post(`${V3_2}/item_inquiry`, inquiry, token)));
    while (after.some((a) => a.status !== 401) && Date.now() < giveUp) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      after = await Promise.all(Array.from({ length: 6 }, () => post(`${V3_2}/item_inquiry`, inquiry, token)));
    }
    expect(after.map((a) => a.status)).toEqual(Array(6).fill(401));
    expect(new Set(after.map((a) => a.servedBy))).toEqual(new Set(['gateway-1', 'gateway-2']));
  });
});
