import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockSeller, type RunningMockSeller } from '../../mock-seller/index';
import { mintDevToken } from '../auth/dev-keys';
import { seedDirectory } from '../directory/directory-seed';
import { V3_2 } from '../app';
import { createStore } from '../store/create-store';
import type { Store } from '../store/store';
import {
  startThrowawayPostgres,
  throwawayPostgresUnavailable,
  type ThrowawayPostgres,
} from '../testing/throwaway-postgres';
import { killAllGatewayProcesses, startGatewayProcess, type GatewayProcess } from '../testing/gateway-process';

// Crash safety: a real gateway process (`node --import tsx gateway/server.ts`) over a PostgreSQL
// server of this test's own is killed with SIGKILL at each point of an order, then started
// again, and the buyer retries with the same PO number and Idempotency-Key. The mock seller
// (in this process, so it outlives the gateway) must never see a second order, and each retry
// gets the answer docs/gateway/answers.md documents for the state the crash left.
//
// Each point is reached with real mechanisms, no hooks in the gateway: a table lock held from
// a second connection (the gateway's statement is seen waiting in pg_stat_activity), the mock
// seller's `hang` and `latency` faults, and a row lock on the order. A statement the dead
// process had already sent would still run once the lock is released (PostgreSQL notices a
// lost client only when it writes the reply, unless client_connection_check_interval is set),
// so after the kill its server sessions are ended, as the process's own would end with it.

const unavailable = await throwawayPostgresUnavailable();

const MEMBER_TIMEOUT_MS = 4_000;
// Under the member's deadline, and long enough to lock the order's row while the seller waits.
const SELLER_LATENCY_MS = 2_500;
const STALE_MARGIN_MS = 500;

interface Reply {
  status_code: number;
  message: string;
}
interface JournalEntry {
  http_status: number | null;
  request: { purchase_order_number?: string };
}

describe.skipIf(unavailable !== undefined)(
  `crash safety: gateway killed (SIGKILL) at each point of an order${unavailable ? ` — skipped: ${unavailable}` : ''}`,
  () => {
    let postgres: ThrowawayPostgres;
    let seller: RunningMockSeller;
    let store: Store;
    let gateway: GatewayProcess | undefined;
    let generation = 0;
    let appName = '';
    const lockers: pg.Client[] = [];

    beforeAll(async () => {
      postgres = await startThrowawayPostgres();
      seller = await startMockSeller();
      store = await createStore({ databaseUrl: postgres.url });
      await seedDirectory(store, { sellerUrl: `${seller.url}/seller` });
      // Short member deadlines, so an order left in flight goes stale within seconds.
      await store.query('UPDATE members SET timeout_ms = $1', [MEMBER_TIMEOUT_MS]);
    }, 120_000);
    afterAll(async () => {
      await killAllGatewayProcesses();
      await Promise.all(lockers.map((c) => c.end().catch(() => {})));
      await store?.close().catch(() => {});
      await seller?.close();
      await postgres?.destroy();
    });

    async function startGateway() {
      appName = `crash-safety-gateway-${++generation}`;
      gateway = await startGatewayProcess({
        env: {
          DATABASE_URL: postgres.url,
          MOCK_SELLER_URL: `${seller.url}/seller`,
          PGAPPNAME: appName, // names the gateway's sessions in pg_stat_activity
          GATEWAY_LOG: 'off',
          GATEWAY_FORWARD_HEADERS: 'x-mock-fault',
          GATEWAY_ORDER_STALE_MARGIN_MS: String(STALE_MARGIN_MS),
          GATEWAY_ORDER_WAIT_MS: '15000',
        },
      });
    }

    /** SIGKILL, then (unless told otherwise) end the dead process's database sessions (see the top of the file). */
    async function crash(options: { endSessions: boolean } = { endSessions: true }) {
      const exit = await gateway!.kill('SIGKILL');
      expect(exit.signal).toBe('SIGKILL');
      gateway = undefined;
      if (options.endSessions)
        await store.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [
          appName,
        ]);
    }

    async function locker(): Promise<pg.Client> {
      const client = new pg.Client({ connectionString: postgres.url, application_name: 'crash-safety-locker' });
      await client.connect();
      lockers.push(client);
      return client;
    }

    async function waitFor<T>(
      what: string,
      probe: () => Promise<T | undefined | false>,
      timeoutMs = 30_000,
    ): Promise<T> {
      const giveUpAt = Date.now() + timeoutMs;
      for (;;) {
        const value = await probe();
        if (value !== undefined && value !== false) return value;
        if (Date.now() > giveUpAt) throw new Error(`timed out waiting for ${what}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }

    /** The gateway's session waiting on a lock with a statement starting so, if there is one. */
    const blockedGatewayStatement = (statementStart: string) =>
      waitFor(`the gateway to wait on a lock in "${statementStart}…"`, async () => {
        const { rows } = await store.query<{ pid: number }>(
          `SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock' AND ltrim(query) LIKE $2`,
          [appName, `${statementStart}%`],
        );
        return rows[0]?.pid;
      });
    const waitingOnLock = (pid: number) =>
      waitFor(`session ${pid} to wait on a lock`, async () => {
        const { rows } = await store.query<{ waiting: boolean }>(
          `SELECT wait_event_type = 'Lock' AS waiting FROM pg_stat_activity WHERE pid = $1`,
          [pid],
        );
        return rows[0]?.waiting === true;
      });

    const orderStatus = async (po: string) =>
      (
        await store.query<{ status: string }>('SELECT status FROM orders WHERE purchase_order_number = $1', [po])
      ).rows.map((r) => r.status);
    const sellerJournal = async (po: string) =>
      (
        (await (await fetch(`${seller.url}/__admin/journal?service=place_order`)).json()) as { entries: JournalEntry[] }
      ).entries.filter((e) => e.request.purchase_order_number === po);

    async function placeOrder(po: string, headers: Record<string, string> = {}) {
      const token = await mintDevToken();
      const response = await fetch(`${gateway!.url}${V3_2}/place_order`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${token}`,
          'idempotency-key': `key-${po}`,
          ...headers,
        },
        body: JSON.stringify({
          purchase_order_number: po,
          order_type: 1,
          items: [{ id: '1', mfr_code: 'WIX', part_number: '51515', location_id: 'L101', quantity_ordered: 1 }],
        }),
      });
      return { status: response.status, body: (await response.json()) as Reply };
    }
    /** The order the crash interrupts: it must get no answer at all. */
    const interrupted = (po: string, headers?: Record<string, string>) =>
      placeOrder(po, headers).then(
        (answer) => ({ answered: answer.status }),
        (error: unknown) => ({ failed: String(error) }),
      );

    /** After the restart: the retry's answer, and the same answer again for a second retry. */
    async function retryTwice(po: string) {
      const first = await placeOrder(po);
      const again = await placeOrder(po);
      expect(again).toEqual(first);
      return first;
    }

    /** Restarted, the buyer's retries place the order: confirmed, and sent to the seller exactly once. */
    async function restartAndExpectPlacedOnce(po: string) {
      await startGateway();
      const retry = await retryTwice(po);
      expect(retry.status).toBe(200);
      expect(retry.body.status_code).toBe(2000);
      expect(await orderStatus(po)).toEqual(['confirmed']);
      expect(await sellerJournal(po)).toHaveLength(1);
    }

    it('killed before the order is recorded (its INSERT waits on a lock): nothing recorded, the retry places it once', async () => {
      await startGateway();
      const po = 'PO-CRASH-CLAIM';
      const lock = await locker();
      await lock.query('BEGIN');
      await lock.query('LOCK TABLE orders IN EXCLUSIVE MODE'); // reads pass, writes wait
      const inFlight = interrupted(po);
      await blockedGatewayStatement('INSERT INTO orders');
      await crash();
      await lock.query('ROLLBACK');
      expect(await inFlight).toHaveProperty('failed');
      expect(await orderStatus(po)).toEqual([]);
      expect(await sellerJournal(po)).toHaveLength(0);

      await restartAndExpectPlacedOnce(po);
    }, 120_000);

    it('killed after the order is claimed, before the forward: the retry takes the stale claim over and places it once', async () => {
      const po = 'PO-CRASH-BEFORE-FORWARD';
      // A lock queue: the first locker holds the table, the gateway's INSERT queues behind it and
      // the second locker behind the INSERT. When the first lets go, the INSERT runs and commits,
      // the second locker gets the table before the gateway's next statement (received →
      // forwarded, the step right before the forward) arrives, and that one waits.
      const first = await locker();
      const second = await locker();
      await first.query('BEGIN');
      await first.query('LOCK TABLE orders IN EXCLUSIVE MODE');
      const inFlight = interrupted(po);
      await blockedGatewayStatement('INSERT INTO orders');
      const secondPid = (await second.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;
      await second.query('BEGIN');
      const secondLocked = second.query('LOCK TABLE orders IN EXCLUSIVE MODE');
      await waitingOnLock(secondPid);
      await first.query('COMMIT');
      await secondLocked;
      await blockedGatewayStatement(`UPDATE orders SET status = 'forwarded'`);
      expect(await orderStatus(po)).toEqual(['received']);
      await crash();
      await second.query('ROLLBACK');
      expect(await inFlight).toHaveProperty('failed');
      expect(await orderStatus(po)).toEqual(['received']);
      expect(await sellerJournal(po)).toHaveLength(0);

      // The claim goes stale MEMBER_TIMEOUT_MS + STALE_MARGIN_MS after it was made; the retry waits for that.
      await restartAndExpectPlacedOnce(po);
    }, 120_000);

    it('killed while the seller holds the request: the retry is answered unknown (504 / 4408), never sent again', async () => {
      const po = 'PO-CRASH-AT-SELLER';
      const inFlight = interrupted(po, { 'x-mock-fault': 'hang' });
      await waitFor('the seller to hold the order', async () => seller.seller.hangingCount === 1);
      expect(await orderStatus(po)).toEqual(['forwarded']);
      await crash();
      expect(await inFlight).toHaveProperty('failed');
      // The seller journals a hung request when its connection closes: here, with the gateway.
      await waitFor('the seller to journal the dropped request', async () => (await sellerJournal(po)).length === 1);

      await startGateway();
      const retry = await retryTwice(po);
      expect(retry.status).toBe(504);
      expect(retry.body.status_code).toBe(4408);
      expect(retry.body.message).toContain("stopped before the seller's answer was recorded");
      expect(retry.body.message).toContain('will not be sent again');
      expect(await orderStatus(po)).toEqual(['unknown']);
      const journal = await sellerJournal(po);
      expect(journal).toHaveLength(1);
      expect(journal[0].http_status).toBeNull();
    }, 120_000);

    it('killed after the seller answered, before the answer is recorded: the retry is answered unknown, the seller has one order', async () => {
      const po = 'PO-CRASH-BEFORE-COMMIT';
      const inFlight = interrupted(po, { 'x-mock-fault': `latency;ms=${SELLER_LATENCY_MS}` });
      await waitFor('the order to be forwarded', async () => (await orderStatus(po))[0] === 'forwarded');
      // Lock the order's row while the seller still waits; its answer then cannot be recorded.
      const lock = await locker();
      await lock.query('BEGIN');
      const locked = await lock.query<{ status: string }>(
        'SELECT status FROM orders WHERE purchase_order_number = $1 FOR UPDATE',
        [po],
      );
      expect(locked.rows[0].status).toBe('forwarded');
      await waitFor('the seller to answer', async () => (await sellerJournal(po))[0]?.http_status === 200);
      await blockedGatewayStatement('UPDATE orders SET status = $2');
      await crash();
      await lock.query('ROLLBACK');
      expect(await inFlight).toHaveProperty('failed');
      expect(await orderStatus(po)).toEqual(['forwarded']);

      await startGateway();
      const retry = await retryTwice(po);
      expect(retry.status).toBe(504);
      expect(retry.body.status_code).toBe(4408);
      expect(retry.body.message).toContain('check with the seller');
      expect(await orderStatus(po)).toEqual(['unknown']);
      expect(await sellerJournal(po)).toHaveLength(1);
    }, 120_000);

    it("killed after the seller answered, its UPDATE already at the server: PostgreSQL still commits it, the retry gets the seller's answer", async () => {
      // What happens without client_connection_check_interval when the dead process's last
      // statement had already reached the server: it runs once the lock goes, and the order
      // ends confirmed with the seller's real reply. Also safe: one order, the true answer.
      const po = 'PO-CRASH-COMMIT-LANDS';
      const inFlight = interrupted(po, { 'x-mock-fault': `latency;ms=${SELLER_LATENCY_MS}` });
      await waitFor('the order to be forwarded', async () => (await orderStatus(po))[0] === 'forwarded');
      const lock = await locker();
      await lock.query('BEGIN');
      const locked = await lock.query<{ status: string }>(
        'SELECT status FROM orders WHERE purchase_order_number = $1 FOR UPDATE',
        [po],
      );
      expect(locked.rows[0].status).toBe('forwarded');
      await waitFor('the seller to answer', async () => (await sellerJournal(po))[0]?.http_status === 200);
      const orphan = await blockedGatewayStatement('UPDATE orders SET status = $2');
      await crash({ endSessions: false });
      await lock.query('ROLLBACK');
      expect(await inFlight).toHaveProperty('failed');
      await waitFor(
        "the dead gateway's statement to finish",
        async () =>
          (await store.query("SELECT 1 FROM pg_stat_activity WHERE pid = $1 AND state = 'active'", [orphan])).rows
            .length === 0,
      );
      expect(await orderStatus(po)).toEqual(['confirmed']);

      await startGateway();
      const retry = await retryTwice(po);
      expect(retry.status).toBe(200);
      expect(retry.body.status_code).toBe(2000);
      expect(await sellerJournal(po)).toHaveLength(1);
    }, 120_000);
  },
);
