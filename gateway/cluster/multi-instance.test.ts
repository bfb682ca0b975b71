import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockSeller, type RunningMockSeller } from '../../mock-seller/index';
import { mintDevToken } from '../auth/dev-keys';
import { mintToken } from '../auth/mint-token';
import { registerKey, revokeKey } from '../directory/api-keys';
import { createStore } from '../store/create-store';
import type { Store } from '../store/store';
import { seedDirectory } from '../directory/directory-seed';
import { unusedPort } from '../../shared/http/listen';
import { haproxyMissing, startBalancer, untilBalancedOver, type Balancer } from '../testing/haproxy-balancer';
import { startRestartableGateway, type RestartableGateway } from '../testing/restartable-gateway';
import { killAllNodeChildren } from '../testing/node-child';
import {
  startThrowawayPostgres,
  throwawayPostgresUnavailable,
  type ThrowawayPostgres,
} from '../testing/throwaway-postgres';

// Beyond one machine: two gateway instances (processes of their own) on one PostgreSQL behind
// HAProxy (Debian's haproxy, with the configuration docs/gateway/scaling.md gives:
// gateway/cluster/haproxy.cfg). Requests spread over both; an order retried through the other
// instance is placed once; a key revoked (in the store, as `npm run keys -- revoke` does) is
// refused by both at once; HAProxy's own errors are the gateway's JSON; an instance restarted
// under load (SIGTERM: it drains first) costs no request.

const V3_2 = '/json/federated/v3_2';
const unavailable = (await haproxyMissing()) ?? (await throwawayPostgresUnavailable());

describe.skipIf(unavailable !== undefined)(
  `two gateway instances behind HAProxy${unavailable ? ` (skipped: ${unavailable})` : ''}`,
  () => {
    let pg: ThrowawayPostgres;
    let seller: RunningMockSeller;
    let store: Store;
    const gateways: RestartableGateway[] = [];
    let balancer: Balancer;
    let lb: string;

    beforeAll(async () => {
      pg = await startThrowawayPostgres();
      seller = await startMockSeller();
      store = await createStore({ databaseUrl: pg.url });
      await seedDirectory(store, { sellerUrl: `${seller.url}/seller` });
      // Both start at once: each is a Node process compiling the gateway, seconds on a busy machine.
      gateways.push(
        ...(await Promise.all(
          [1, 2].map(() => startRestartableGateway({ DATABASE_URL: pg.url, GATEWAY_SEED: 'off', GATEWAY_LOG: 'off' })),
        )),
      );
      balancer = await startBalancer([gateways[0].address, gateways[1].address]);
      lb = balancer.url;
      // Ready once both instances pass their health check and answer through the balancer.
      await untilBalancedOver(balancer, ['gateway-1', 'gateway-2']);
    }, 180_000);

    afterAll(async () => {
      await balancer?.close();
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
      expect(
        journal.entries.filter((e) => e.request.purchase_order_number === order.purchase_order_number),
      ).toHaveLength(1);
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

    it("answers its own errors in the gateway's JSON body, never HTML", async () => {
      // A balancer whose instances are both gone: HAProxy answers 503 itself.
      const [a, b] = await Promise.all([unusedPort(), unusedPort()]);
      const orphan = await startBalancer([`127.0.0.1:${a}`, `127.0.0.1:${b}`]);
      try {
        const answer = await fetch(`${orphan.url}${V3_2}/item_inquiry`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{}',
        });
        expect([answer.status, answer.headers.get('content-type'), answer.headers.get('retry-after')]).toEqual([
          503,
          'application/json',
          '1',
        ]);
        expect(await answer.json()).toMatchObject({
          status_code: 5503,
          message: expect.stringContaining('no gateway instance is available'),
        });
      } finally {
        await orphan.close();
      }
    });

    it('restarts an instance under load without a failed request or an answer that is not JSON', async () => {
      const token = await mintDevToken();
      const run = Date.now().toString(36);
      const answers: { status: number; json: boolean; po?: string }[] = [];
      const failures: string[] = [];
      let loading = true;
      // Paced: a request every 10 ms whether or not earlier ones answered, every fifth an order with a new PO number.
      const load = (async () => {
        const pending: Promise<void>[] = [];
        for (let i = 0; loading; i++) {
          const po = i % 5 === 4 ? `PO-RESTART-${run}-${i}` : undefined;
          const [path, body] =
            po === undefined
              ? [`${V3_2}/item_inquiry`, inquiry]
              : [
                  `${V3_2}/place_order`,
                  {
                    purchase_order_number: po,
                    order_type: 1,
                    items: [
                      { id: '1', mfr_code: 'WIX', part_number: '51515', location_id: 'L101', quantity_ordered: 1 },
                    ],
                  },
                ];
          pending.push(
            fetch(`${lb}${path}`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
              body: JSON.stringify(body),
            })
              .then(async (response) => {
                const text = await response.text();
                const json =
                  (response.headers.get('content-type') ?? '').startsWith('application/json') &&
                  (() => {
                    try {
                      JSON.parse(text);
                      return true;
                    } catch {
                      return false;
                    }
                  })();
                answers.push({ status: response.status, json, po });
              })
              .catch(
                (error: Error) =>
                  void failures.push(
                    `${path}: ${error.message} (${(error.cause as Error | undefined)?.message ?? ''})`,
                  ),
              ),
          );
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        await Promise.all(pending);
      })();
      await new Promise((resolve) => setTimeout(resolve, 300));
      // Down for 3 s, longer than HAProxy's own retries to the same server (3, a second apart) last.
      await gateways[0].restart(3_000);
      await untilBalancedOver(balancer, ['gateway-1', 'gateway-2']);
      loading = false;
      await load;

      expect(failures).toEqual([]);
      expect(answers.length).toBeGreaterThan(100);
      expect(answers.filter((a) => !a.json)).toEqual([]);
      expect(answers.filter((a) => a.status !== 200)).toEqual([]);
      // Every order answered 200 is stored once.
      const placed = answers.flatMap((a) => (a.po === undefined ? [] : [a.po]));
      const stored = await store.query<{ n: string }>(
        'SELECT count(*) AS n FROM orders WHERE purchase_order_number = ANY($1)',
        [placed],
      );
      expect(Number(stored.rows[0].n)).toBe(placed.length);
    });
  },
);
