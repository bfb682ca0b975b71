import { afterEach, describe, expect, it } from 'vitest';
import { createTestStore } from '../testing/test-store';
import type { Store } from '../store/store';
import { demoSellerUrl, pointSeededMembersAt } from './demo-seller-url';

// The demo's members follow the mock seller npm start runs; a URL set by hand stays.

const stores: Store[] = [];
afterEach(async () => {
  await Promise.all(stores.splice(0).map((s) => s.close()));
});

const urls = async (store: Store) =>
  Object.fromEntries(
    (await store.query<{ id: string; seller_url: string }>('SELECT id, seller_url FROM members ORDER BY id')).rows.map(
      (r) => [r.id, r.seller_url],
    ),
  );

describe('demoSellerUrl', () => {
  it('is where the mock listens, or its public URL, with a wildcard host as loopback', () => {
    expect(demoSellerUrl('http://127.0.0.1:29090')).toBe('http://127.0.0.1:29090/seller');
    expect(demoSellerUrl('http://0.0.0.0:29090')).toBe('http://127.0.0.1:29090/seller');
    expect(demoSellerUrl('http://[::]:29090')).toBe('http://[::1]:29090/seller');
    expect(demoSellerUrl('http://127.0.0.1:29090', 'http://seller.test:8000')).toBe('http://seller.test:8000/seller');
  });
});

describe('pointSeededMembersAt', () => {
  it('moves the seeded members from an earlier mock seller port to today’s, once', async () => {
    const store = await createTestStore({ sellerUrl: 'http://127.0.0.1:9090/seller' });
    stores.push(store);
    const moved = await pointSeededMembersAt(store, 'http://127.0.0.1:29090/seller');
    expect(moved.length).toBeGreaterThan(0);
    expect(moved.every((m) => m.was === 'http://127.0.0.1:9090/seller')).toBe(true);
    expect(new Set(Object.values(await urls(store)))).toEqual(new Set(['http://127.0.0.1:29090/seller']));
    expect(await pointSeededMembersAt(store, 'http://127.0.0.1:29090/seller')).toEqual([]);
  });

  it('leaves a seller URL an operator set by hand', async () => {
    const store = await createTestStore({ sellerUrl: 'https://seller.example/federated' });
    stores.push(store);
    expect(await pointSeededMembersAt(store, 'http://127.0.0.1:29090/seller')).toEqual([]);
    expect(new Set(Object.values(await urls(store)))).toEqual(new Set(['https://seller.example/federated']));
  });
});
