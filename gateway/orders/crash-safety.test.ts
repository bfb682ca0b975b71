import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startMockSeller, type RunningMockSeller } from '../../mock-seller/index';
import { createStore } from '../store/create-store';
import type { Store } from '../store/store';
import { seedDirectory } from '../directory/directory-seed';
import { mintDevToken } from '../auth/dev-keys';
import { startThrowawayPostgres, throwawayPostgresUnavailable, type ThrowawayPostgres } from '../testing/throwaway-postgres';
import { startTsxProcess, type TsxProcess } from '../testing/tsx-process';

// The gateway process killed with SIGKILL (a real child process, no chance to clean up) at
// each point of an order, then started again: the buyer's retries of the same PO number never
// make a second order at the seller, and each answer is the documented one (docs/gateway.md,
// "Orders"): a claim never sent is taken over and placed once; one that may have reached the
// seller becomes unknown (504 / 4408, "will not be sent again").
//
// The points are reached without hooks in the product: the database stalls the gateway's own
// UPDATE (a trigger that sleeps) right before the forward or right before the seller's answer
// is recorded, and the mock seller holds the request (the `hang` fault) for the point between.

const unavailable = await throwawayPostgresUnavailable();
const V3_2 = '/json/federated/v3_2';
const MEMBER_TIMEOUT_MS = 2_000;
const STALE_MARGIN_MS = 300;

interface Reply {
  status_code: number;
  message?: string;
}

describe.skipIf(unavailable !== undefined)(`an order when the gateway is killed (SIGKILL) mid-way${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
  let pg: ThrowawayPostgres;
  let seller: RunningMockSeller;
  let store: Store;
  let gateway: TsxProcess | undefined;
  let token: string;

  const startGateway = () =>
    startTsxProcess(
      'gateway',
      ['gateway/server.ts'],
      {
        DATABASE_URL: pg.url,
        GATEWAY_PORT: '0',
        GATEWAY_SEED: 'off',
        GATEWAY_LOG: 'off',
        GATEWAY_FORWARD_HEADERS: 'x-mock-fault',
        GATEWAY_ORDER_STALE_MARGIN_MS: String(STALE_MARGIN_MS),
        GATEWAY_ORDER_WAIT_MS: '200',
      },
      /gateway: listening on (http:\/\/[^\s,]+)/,
    );

  beforeAll(async () => {
    pg = await startThrowawayPostgres();
    seller = await startMockSeller();
    store = await createStore({ databaseUrl: pg.url });
    await seedDirectory(store, { sellerUrl: `${seller.url}/seller` });
    // A short seller deadline: an order left in flight goes stale after it plus the margin.
    await store.query('UPDATE members SET timeout_ms = $1', [MEMBER_TIMEOUT_MS]);
    await store.query(`CREATE FUNCTION crash_test_stall() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep(60); RETURN NEW; END $$`);
    token = await mintDevToken('dev-key-1', { ttlSeconds: 600 });
  }, 120_000);

  afterEach(async () => {
    await gateway?.kill('SIGKILL');
    gateway = undefined;
    await store.query('DROP TRIGGER IF EXISTS crash_test_stall ON orders');
  });

  afterAll(async () => {
    await gateway?.kill('SIGKILL');
    await store?.close().catch(() => {});
    await seller?.close();
    await pg?.destroy();
  });

  const order = (po: string) => ({ purchase_order_number: po, order_type: 1, items: [{ id: '1', mfr_code: 'WIX', part_number: '51515', location_id: 'L101', quantity_ordered: 1 }] });

  const placeOrder = async (po: string, headers: Record<string, string> = {}) => {
    const response = await fetch(`${gateway!.url}${V3_2}/place_order`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, ...headers },
      body: JSON.stringify(order(po)),
    });
    return { status: response.status, replayed: response.headers.get('idempotent-replayed'), body: (await response.json()) as Reply };
  };

  /** Orders with this PO number the seller received (its journal: a held request is written when its connection closes). */
  const sellerReceived = async (po: string) =>
    ((await (await fetch(`${seller.url}/__admin/journal?service=place_order`)).json()) as { entries: { request: { purchase_order_number: string } }[] }).entries.filter(
      (e) => e.request.purchase_order_number === po,
    ).length;

  const orderStatus = async (po: string) => (await store.query<{ status: string }>('SELECT status FROM orders WHERE purchase_order_number = $1', [po])).rows.map((r) => r.status);

  /** Makes the gateway's UPDATE of this order to `status` sleep inside the database. */
  const stallUpdateTo = (status: string, po: string) =>
    store.query(
      `CREATE TRIGGER crash_test_stall BEFORE UPDATE ON orders FOR EACH ROW WHEN (NEW.status = '${status}' AND NEW.purchase_order_number = '${po}') EXECUTE FUNCTION crash_test_stall()`,
    );

  const until = async (what: string, check: () => Promise<boolean> | boolean, timeoutMs = 20_000) => {
    const giveUp = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > giveUp) throw new Error(`waited ${timeoutMs} ms for ${what}\n${gateway?.output() ?? ''}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };
  const stalledInDatabase = async () => (await store.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event = 'PgSleep'")).rows[0].n === 1;

  /** Kills the gateway while `request` is under way; the buyer sees the connection drop, no answer. */
  const killDuring = async (request: Promise<unknown>) => {
    const outcome = request.then(
      () => 'answered',
      () => 'connection lost',
    );
    expect(await gateway!.kill('SIGKILL')).toBe('SIGKILL');
    expect(await outcome).toBe('connection lost');
    // A backend notices its client is gone only when it next talks to it; one stalled in the
    // trigger's sleep would hold its lock for the whole sleep. Ending it is what happens to a
    // dead client's transaction anyway: rolled back.
    await store.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE wait_event = 'PgSleep'");
  };

  /** After the crash: started again, and the claim left behind has gone stale. */
  const restartAfterStale = async () => {
    await store.query('DROP TRIGGER IF EXISTS crash_test_stall ON orders');
    gateway = await startGateway();
    await new Promise((resolve) => setTimeout(resolve, MEMBER_TIMEOUT_MS + STALE_MARGIN_MS + 200));
  };

  it('killed before the forward: the order was never sent; a retry places it once', async () => {
    const po = 'PO-CRASH-BEFORE';
    gateway = await startGateway();
    await stallUpdateTo('forwarded', po);
    const first = placeOrder(po);
    await until('the gateway to stall before the forward', stalledInDatabase);
    await killDuring(first);
    expect(await orderStatus(po)).toEqual(['received']);
    expect(await sellerReceived(po)).toBe(0);

    await restartAfterStale();
    const retry = await placeOrder(po);
    expect(retry.status).toBe(200);
    expect(retry.body.status_code).toBe(2000);
    expect(await orderStatus(po)).toEqual(['confirmed']);
    const again = await placeOrder(po);
    expect([again.status, again.body.status_code, again.replayed]).toEqual([200, 2000, 'true']);
    expect(await sellerReceived(po)).toBe(1);
  }, 60_000);

  it('killed while the seller holds the request: unknown on retry, never sent again', async () => {
    const po = 'PO-CRASH-AT-SELLER';
    gateway = await startGateway();
    const first = placeOrder(po, { 'x-mock-fault': 'hang' });
    await until('the seller to hold the request', () => seller.seller.hangingCount === 1);
    await killDuring(first);
    expect(await orderStatus(po)).toEqual(['forwarded']);
    await until('the seller to journal the dropped request', async () => (await sellerReceived(po)) === 1);

    await restartAfterStale();
    const retry = await placeOrder(po);
    expect(retry.status).toBe(504);
    expect(retry.body.status_code).toBe(4408);
    expect(retry.body.message).toContain('will not be sent again');
    expect(await orderStatus(po)).toEqual(['unknown']);
    const again = await placeOrder(po);
    expect([again.status, again.body.status_code]).toEqual([504, 4408]);
    expect(await sellerReceived(po)).toBe(1);
  }, 60_000);

  it('killed after the seller answered, before the answer was recorded: unknown on retry, placed once', async () => {
    const po = 'PO-CRASH-AFTER-SELLER';
    gateway = await startGateway();
    await stallUpdateTo('confirmed', po);
    const first = placeOrder(po);
    await until('the gateway to stall recording the answer', stalledInDatabase);
    expect(await sellerReceived(po)).toBe(1);
    expect(seller.seller.orders.filter((o) => o.request.purchase_order_number === po)).toHaveLength(1);
    await killDuring(first);
    expect(await orderStatus(po)).toEqual(['forwarded']);

    await restartAfterStale();
    const retry = await placeOrder(po);
    expect(retry.status).toBe(504);
    expect(retry.body.status_code).toBe(4408);
    expect(retry.body.message).toContain('will not be sent again');
    const again = await placeOrder(po);
    expect([again.status, again.body.status_code]).toEqual([504, 4408]);
    expect(await sellerReceived(po)).toBe(1);
  }, 60_000);
});
