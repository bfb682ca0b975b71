import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Queryable, Store } from '../store/store';
import { countingStore, type CountingStore } from '../testing/counting-store';
import { createTestStore } from '../testing/test-store';
import { clientRateLimits } from './client-rate-limits';

// Each client's limit is read once per TTL however many requests ask at once, a stale limit
// is served while one refresh runs, and a failed read is neither cached nor fatal.

const CLIENT = 'dev-buyer-system';
const TTL = 30_000;
const DEFAULT = 3;

let store: Store;
let counted: CountingStore;
let down = false;
// The real store, counted; while `down`, each statement still runs but its answer is lost as
// if the connection dropped.
let flaky: Queryable;
let now = 0;
const clock = () => now;

beforeAll(async () => {
  store = await createTestStore();
  await store.query(`UPDATE api_clients SET rate_limit = 10 WHERE id = $1`, [CLIENT]);
  counted = countingStore(store);
  flaky = {
    query<Row>(sql: string, params?: unknown[]) {
      const result = counted.query<Row>(sql, params);
      if (!down) return result;
      return result.then(() =>
        Promise.reject(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })),
      );
    },
  };
});
afterAll(() => store?.close());
beforeEach(async () => {
  now = 0;
  down = false;
  await store.query(`UPDATE api_clients SET rate_limit = 10 WHERE id = $1`, [CLIENT]);
  counted.reset();
});

const limitsOf = () => clientRateLimits(flaky, { defaultLimit: DEFAULT, ttlMs: TTL, clock });
const fifty = (limits: ReturnType<typeof limitsOf>) => Promise.all(Array.from({ length: 50 }, () => limits.of(CLIENT)));

describe('clientRateLimits', () => {
  it('50 concurrent first look-ups share one query; then memory answers until the TTL', async () => {
    const limits = limitsOf();
    expect(await fifty(limits)).toEqual(Array(50).fill(10));
    expect(counted.count).toBe(1);
    now += TTL / 2; // before the last fifth, where a read would reload it ahead (ttl-cache.ts)
    expect(limits.inMemory(CLIENT)).toBe(10);
    expect(await limits.of(CLIENT)).toBe(10);
    expect(counted.count).toBe(1);
    expect(await limits.of('no-such-client')).toBe(DEFAULT);
  });

  it('after expiry, 50 concurrent look-ups get the stale limit at once and one query refreshes it', async () => {
    const limits = limitsOf();
    await limits.of(CLIENT);
    await store.query(`UPDATE api_clients SET rate_limit = 20 WHERE id = $1`, [CLIENT]);
    now += TTL;
    counted.reset();
    expect(limits.inMemory(CLIENT)).toBeUndefined();
    expect(await fifty(limits)).toEqual(Array(50).fill(10));
    await vi.waitFor(() => expect(limits.inMemory(CLIENT)).toBe(20), { timeout: 5_000, interval: 5 });
    expect(counted.count).toBe(1);
    expect(await limits.of(CLIENT)).toBe(20);
    expect(counted.count).toBe(1);
  });

  it('a failed first look-up answers the default, is not cached, and the next look-up asks again', async () => {
    const limits = limitsOf();
    down = true;
    expect(await fifty(limits)).toEqual(Array(50).fill(DEFAULT));
    expect(counted.count).toBe(1);
    expect(limits.inMemory(CLIENT)).toBeUndefined();
    down = false;
    expect(await limits.of(CLIENT)).toBe(10);
    expect(counted.count).toBe(2);
    expect(limits.inMemory(CLIENT)).toBe(10);
  });

  it('a failed refresh keeps the last known limit and does not stop the next refresh', async () => {
    const limits = limitsOf();
    await limits.of(CLIENT);
    await store.query(`UPDATE api_clients SET rate_limit = 20 WHERE id = $1`, [CLIENT]);
    now += TTL;
    counted.reset();
    down = true;
    expect(await fifty(limits)).toEqual(Array(50).fill(10));
    expect(counted.count).toBe(1);
    down = false;
    // Look-ups share the failing query until it settles, then one new query succeeds.
    await vi.waitFor(
      async () => {
        expect(await limits.of(CLIENT)).toBeGreaterThan(0);
        expect(limits.inMemory(CLIENT)).toBe(20);
      },
      { timeout: 5_000, interval: 5 },
    );
    expect(counted.count).toBe(2);
  });
});
