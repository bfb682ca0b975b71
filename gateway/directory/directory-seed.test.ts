import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPrivateKey, createPublicKey, sign, verify } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Store } from '../store/store';
import { availableTestBackends, createTestStore } from '../testing/test-store';
import { readDirectorySeed, seedDirectory } from './directory-seed';
import { DEFAULT_SELLER_URL } from '../store/store-config';
import { openGatewayStore } from '../open-gateway-store';
import { DEV_KEYS } from '../auth/dev-keys';

const tableCounts = async (store: Store) => {
  const { rows } = await store.query<Record<string, number>>(
    `SELECT (SELECT count(*) FROM members) AS members, (SELECT count(*) FROM locations) AS locations,
            (SELECT count(*) FROM accounts) AS accounts, (SELECT count(*) FROM users) AS users,
            (SELECT count(*) FROM user_locations) AS user_locations, (SELECT count(*) FROM api_clients) AS api_clients,
            (SELECT count(*) FROM api_client_users) AS api_client_users, (SELECT count(*) FROM api_keys) AS api_keys,
            (SELECT count(*) FROM catalog_regions) AS catalog_regions`,
  );
  return rows[0];
};

describe.each(availableTestBackends())('directory seeds on %s', (backend) => {
  let store: Store;
  beforeAll(async () => {
    store = await createTestStore({ backend, empty: true });
  });
  afterAll(async () => {
    await store?.close();
  });

  it('load every row of seeds/directory.json into an empty store, once', async () => {
    const seed = await readDirectorySeed();
    expect(await seedDirectory(store)).toEqual({ seeded: true });
    const expected = {
      members: seed.members.length,
      locations: seed.locations.length,
      accounts: seed.accounts.length,
      users: seed.users.length,
      user_locations: seed.users.reduce((n, u) => n + u.locations.length, 0),
      api_clients: seed.apiClients.length,
      api_client_users: seed.apiClients.reduce((n, c) => n + c.users.length, 0),
      api_keys: seed.apiClients.reduce((n, c) => n + c.keys.length, 0),
      catalog_regions: seed.catalogRegions.length,
    };
    expect(await tableCounts(store)).toEqual(expected);
    // A second run (a restart) writes nothing.
    expect(await seedDirectory(store)).toEqual({ seeded: false });
    expect(await tableCounts(store)).toEqual(expected);
  });

  it('hold the agreed demo ids', async () => {
    const { rows } = await store.query<{ username: string; locations: string }>(
      `SELECT u.username, string_agg(ul.location_id || ':' || ul.account_id || ':' || ul.can_order, ' ' ORDER BY ul.sort_order) AS locations
       FROM users u JOIN user_locations ul ON ul.user_id = u.id GROUP BY u.username ORDER BY u.username`,
    );
    expect(rows).toEqual([
      { username: 'demo', locations: 'L101:A-1001:true L150:A-1001:true L201:A-2001:true L250:A-2001:false' },
      { username: 'other', locations: 'L102:A-1002:true L201:A-2002:true' },
    ]);
    const members = await store.query('SELECT id, name, seller_url FROM members ORDER BY id');
    expect(members.rows).toEqual([
      { id: 'M100', name: 'Northside Parts Co-op', seller_url: DEFAULT_SELLER_URL },
      { id: 'M200', name: 'Lakeshore Auto Supply', seller_url: DEFAULT_SELLER_URL },
    ]);
  });

  it('register the public half of each committed dev key pair', async () => {
    for (const key of Object.values(DEV_KEYS)) {
      const { rows } = await store.query<{ public_key_pem: string; client_id: string }>(
        'SELECT public_key_pem, client_id FROM api_keys WHERE kid = $1',
        [key.kid],
      );
      expect(rows[0].client_id).toBe(key.clientId);
      const privateKey = createPrivateKey(await readFile(key.privateKeyFile, 'utf8'));
      const signature = sign('sha256', Buffer.from('proof'), privateKey);
      expect(verify('sha256', Buffer.from('proof'), createPublicKey(rows[0].public_key_pem), signature)).toBe(true);
    }
  });
});

describe.each(availableTestBackends())('concurrent seeding on %s', (backend) => {
  it('seeds once when two starters seed an empty store at the same time', async () => {
    const store = await createTestStore({ backend, empty: true });
    try {
      const results = await Promise.all([seedDirectory(store), seedDirectory(store)]);
      expect(results.map((r) => r.seeded).sort()).toEqual([false, true]);
      const { rows } = await store.query<{ n: number }>('SELECT count(*) AS n FROM users');
      expect(rows[0].n).toBe((await readDirectorySeed()).users.length);
    } finally {
      await store.close();
    }
  });
});

describe('seller URL at seed time', () => {
  it('comes from MOCK_SELLER_URL when the store is opened with it set', async () => {
    const store = await openGatewayStore({
      GATEWAY_DATA_DIR: 'memory',
      MOCK_SELLER_URL: 'http://127.0.0.1:19999/seller',
    });
    try {
      const { rows } = await store.query<{ seller_url: string }>('SELECT DISTINCT seller_url FROM members');
      expect(rows).toEqual([{ seller_url: 'http://127.0.0.1:19999/seller' }]);
    } finally {
      await store.close();
    }
  });

  it('refuses a MOCK_SELLER_URL that is not a URL, naming the variable', async () => {
    await expect(openGatewayStore({ GATEWAY_DATA_DIR: 'memory', MOCK_SELLER_URL: 'localhost:9090' })).rejects.toThrow(
      "MOCK_SELLER_URL must be a URL (http://… or https://…), not 'localhost:9090'",
    );
  });

  it('is what createTestStore({ sellerUrl }) says', async () => {
    const store = await createTestStore({ sellerUrl: 'http://127.0.0.1:12345/seller' });
    try {
      const { rows } = await store.query<{ seller_url: string }>('SELECT DISTINCT seller_url FROM members');
      expect(rows).toEqual([{ seller_url: 'http://127.0.0.1:12345/seller' }]);
    } finally {
      await store.close();
    }
  });
});
