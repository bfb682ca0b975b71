import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../store/store';
import { availableTestBackends, createTestStore } from '../testing/test-store';
import { countingStore, type CountingStore } from '../testing/counting-store';
import { createDirectory } from './create-directory';
import { revokeKey } from './api-keys';

describe.each(availableTestBackends())('directory on %s', (backend) => {
  let store: Store;
  beforeAll(async () => {
    store = await createTestStore({ backend });
  });
  afterAll(async () => {
    await store?.close();
  });

  it('finds a buyer user with their locations sorted by sort_order', async () => {
    // Insert out of order so the sort, not the insertion order, decides.
    await store.query(
      `INSERT INTO users (username, email, first_name, last_name, address, city, state, zip, employee_id,
         catalog_region_id, account_id, member_id)
       VALUES ('shuffled', 'shuffled@x.example', 'S', 'U', 'a', 'c', 's', 'z', 'e', 'CR-NORTH', 'A-1001', 'M100')`,
    );
    for (const [location, member, account, sort] of [
      ['L201', 'M200', 'A-2001', 7],
      ['L101', 'M100', 'A-1001', 2],
      ['L150', 'M100', 'A-1001', 5],
    ] as const) {
      await store.query(
        `INSERT INTO user_locations (user_id, location_id, member_id, account_id, can_order, sort_order)
         SELECT id, $1, $2, $3, true, $4 FROM users WHERE username = 'shuffled'`,
        [location, member, account, sort],
      );
    }
    const user = await createDirectory(store).findUser('shuffled');
    expect(user?.locations.map((l) => [l.locationId, l.sortOrder])).toEqual([
      ['L101', 2],
      ['L150', 5],
      ['L201', 7],
    ]);
  });

  it('returns the seeded demo user exactly', async () => {
    const user = await createDirectory(store).findUser('demo');
    expect(user).toEqual({
      id: expect.any(Number),
      username: 'demo',
      email: 'demo@demo-garage.example',
      terminalPin: 'T-DEMO-1',
      accountId: 'A-1001',
      locations: [
        {
          locationId: 'L101',
          memberId: 'M100',
          accountId: 'A-1001',
          description: 'Northside Main St',
          type: 1,
          canOrder: true,
          sortOrder: 1,
        },
        {
          locationId: 'L150',
          memberId: 'M100',
          accountId: 'A-1001',
          description: 'Northside Distribution Center',
          type: 2,
          canOrder: true,
          sortOrder: 2,
        },
        {
          locationId: 'L201',
          memberId: 'M200',
          accountId: 'A-2001',
          description: 'Lakeshore Harbor',
          type: 1,
          canOrder: true,
          sortOrder: 3,
        },
        {
          locationId: 'L250',
          memberId: 'M200',
          accountId: 'A-2001',
          description: 'Lakeshore Distribution Center',
          type: 2,
          canOrder: false,
          sortOrder: 4,
        },
      ],
    });
  });

  it('returns members, locations, accounts, keys and client links from the seeds', async () => {
    const directory = createDirectory(store);
    expect(await directory.findMember('M200')).toEqual({
      id: 'M200',
      name: 'Lakeshore Auto Supply',
      sellerUrl: 'http://127.0.0.1:9090/seller',
      sellerAuth: { kind: 'none' },
      integration: 'lakeshore-dev',
      timeoutMs: 5000,
      replyMode: 'strict',
      // Seeded members serve buyers from the first start.
      status: 'live',
    });
    expect(await directory.findLocation('L150')).toEqual({
      id: 'L150',
      memberId: 'M100',
      description: 'Northside Distribution Center',
      type: 2,
    });
    expect(await directory.findAccount('M200', 'A-2002')).toEqual({
      memberId: 'M200',
      accountId: 'A-2002',
      description: 'Other Body Shop (Lakeshore)',
      standing: 'good',
    });
    const key = await directory.findKey('dev-key-1');
    expect(key).toMatchObject({ kid: 'dev-key-1', clientId: 'dev-buyer-system', algorithm: 'RS256', active: true });
    expect(key?.publicKeyPem).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    expect(await directory.linkedUsernames('dev-buyer-system')).toEqual(['demo']);
    expect(await directory.linkedUsernames('dev-other-system')).toEqual(['other']);
  });

  it('answers undefined (or no users) for what does not exist', async () => {
    const directory = createDirectory(store);
    expect(await directory.findUser('nobody')).toBeUndefined();
    expect(await directory.findMember('M999')).toBeUndefined();
    expect(await directory.findLocation('L999')).toBeUndefined();
    expect(await directory.findAccount('M100', 'A-2001')).toBeUndefined(); // held at M200, not M100
    expect(await directory.findKey('no-such-kid')).toBeUndefined();
    expect(await directory.linkedUsernames('no-such-client')).toEqual([]);
  });

  it('maps bearer and basic seller auth', async () => {
    await store.query(
      `INSERT INTO members (id, name, seller_url, seller_auth_kind, seller_auth_token) VALUES ('MB', 'Bearer', 'http://b/seller', 'bearer', 'tok')`,
    );
    await store.query(
      `INSERT INTO members (id, name, seller_url, seller_auth_kind, seller_auth_username, seller_auth_password, reply_mode)
       VALUES ('MBA', 'Basic', 'http://b/seller', 'basic', 'u', 'p', 'lenient')`,
    );
    const directory = createDirectory(store);
    expect(await directory.findMember('MB')).toMatchObject({
      sellerAuth: { kind: 'bearer', token: 'tok' },
      integration: null,
    });
    expect(await directory.findMember('MBA')).toMatchObject({
      sellerAuth: { kind: 'basic', username: 'u', password: 'p' },
      replyMode: 'lenient',
    });
  });
});

describe('directory cache', () => {
  let store: Store;
  let counted: CountingStore;
  beforeAll(async () => {
    store = await createTestStore();
    counted = countingStore(store);
    // The first directory on a PostgreSQL store opens its LISTEN connection, which drops
    // every cache once it is up (signals may have been missed before): let that happen now,
    // not in the middle of a test counting queries. No notify of our own: one sent after
    // LISTEN is in place would arrive on its own, later, beside the catch-up.
    let signals = 0;
    const stop = store.onDirectoryChanged?.(() => signals++);
    await store.directoryChangesListening?.();
    stop?.();
    // PGlite listens from its start: no connection to wait for, no catch-up.
    expect(signals > 0 || store.directoryChangesListening === undefined).toBe(true);
  });
  afterAll(async () => {
    await store?.close();
  });

  it('answers a repeated look-up of every kind without querying the store', async () => {
    const directory = createDirectory(counted);
    const lookups = async () => [
      await directory.findKey('dev-key-1'),
      await directory.linkedUsernames('dev-buyer-system'),
      await directory.findUser('demo'),
      await directory.findLocation('L101'),
      await directory.findMember('M100'),
      await directory.findAccount('M100', 'A-1001'),
      await directory.findKey('unknown-kid'),
    ];
    counted.reset();
    const first = await lookups();
    expect(counted.count).toBe(7);
    const second = await lookups();
    expect(counted.count).toBe(7);
    expect(second).toEqual(first);
  });

  it('shares one query between concurrent misses for the same key', async () => {
    const directory = createDirectory(counted);
    counted.reset();
    const users = await Promise.all([
      directory.findUser('demo'),
      directory.findUser('demo'),
      directory.findUser('demo'),
    ]);
    expect(counted.count).toBe(1);
    expect(users[1]).toBe(users[0]);
  });

  it('reads the store again after the TTL', async () => {
    let now = 1_000;
    const directory = createDirectory(counted, { ttlMs: 30_000, now: () => now });
    counted.reset();
    await directory.findMember('M100');
    // Not read in its last fifth (which would reload it ahead, see below): it just expires.
    now += 23_999;
    await directory.findMember('M100');
    expect(counted.count).toBe(1);
    now += 6_001;
    await directory.findMember('M100');
    expect(counted.count).toBe(2);
  });

  it('reloads an entry read in the last fifth of its TTL in the background: no read waits for the store when its time is up', async () => {
    let now = 1_000;
    const directory = createDirectory(counted, { ttlMs: 30_000, now: () => now });
    counted.reset();
    const first = await directory.findMember('M100');
    now += 25_000;
    expect(directory.cached.member('M100')?.value).toBe(first);
    expect(counted.count).toBe(2); // the reload ahead, started by that read
    // The reload's answer is a new (frozen) object, in place once it has settled.
    for (
      const deadline = Date.now() + 5_000;
      directory.cached.member('M100')?.value === first && Date.now() < deadline;
    ) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(directory.cached.member('M100')?.value).not.toBe(first);
    now += 5_000; // the first entry's time is up; the reloaded one (from 26_000) is fresh
    expect(directory.cached.member('M100')).toBeDefined();
    expect(counted.count).toBe(2);
  });

  it('sees a write after invalidate(), and not before (within the TTL)', async () => {
    const directory = createDirectory(counted);
    expect((await directory.findAccount('M100', 'A-1002'))?.standing).toBe('good');
    await store.query("UPDATE accounts SET standing = 'on_hold' WHERE member_id = 'M100' AND account_id = 'A-1002'");
    expect((await directory.findAccount('M100', 'A-1002'))?.standing).toBe('good');
    directory.invalidate();
    expect((await directory.findAccount('M100', 'A-1002'))?.standing).toBe('on_hold');
  });

  it('stops serving a key as active once it is revoked through the keys command', async () => {
    const directory = createDirectory(counted);
    expect((await directory.findKey('dev-key-2'))?.active).toBe(true);
    await revokeKey(store, 'dev-key-2', directory);
    expect((await directory.findKey('dev-key-2'))?.active).toBe(false);
  });

  it('with ttlMs 0 reads through on every look-up', async () => {
    const directory = createDirectory(counted, { ttlMs: 0 });
    counted.reset();
    await directory.findLocation('L101');
    await directory.findLocation('L101');
    expect(counted.count).toBe(2);
  });

  it('forgets a failed load so the next look-up retries', async () => {
    let fail = true;
    const flaky: Store = {
      ...store,
      kind: store.kind,
      query: (sql, params) => (fail ? Promise.reject(new Error('connection reset')) : store.query(sql, params)),
      transaction: store.transaction,
      close: store.close,
    };
    const directory = createDirectory(flaky);
    await expect(directory.findMember('M100')).rejects.toThrow('connection reset');
    fail = false;
    expect((await directory.findMember('M100'))?.id).toBe('M100');
  });

  it('hands out frozen values, so one request cannot change what the next one sees', async () => {
    const directory = createDirectory(counted);
    const user = await directory.findUser('demo');
    expect(() => (user!.locations as unknown[]).reverse()).toThrow(TypeError);
    expect(() => {
      (user!.locations[0] as { canOrder: boolean }).canOrder = false;
    }).toThrow(TypeError);
    expect((await directory.findUser('demo'))?.locations[0]).toMatchObject({ locationId: 'L101', canOrder: true });
  });

  it('answers synchronously from memory once a look-up has settled, and not before', async () => {
    let now = 1_000;
    const directory = createDirectory(counted, { ttlMs: 30_000, now: () => now });
    expect(directory.cached.user('demo')).toBeUndefined();
    const loading = directory.findUser('demo');
    // Loading, not settled: the caller must wait for the promise.
    expect(directory.cached.user('demo')).toBeUndefined();
    const user = await loading;
    expect(directory.cached.user('demo')?.value).toBe(user);
    expect(directory.cached.key('dev-key-1')).toBeUndefined();
    await directory.findKey('dev-key-1');
    await directory.findKey('unknown-kid');
    await directory.linkedUsernames('dev-buyer-system');
    await directory.findMember('M100');
    expect(directory.cached.key('dev-key-1')?.value?.active).toBe(true);
    // A cached "no such key" is an answer too, unlike "not cached".
    expect(directory.cached.key('unknown-kid')).toEqual({ value: undefined });
    expect(directory.cached.linkedUsernames('dev-buyer-system')?.value).toEqual(['demo']);
    expect(directory.cached.member('M100')?.value?.id).toBe('M100');
    now += 30_000;
    expect(directory.cached.user('demo')).toBeUndefined();
    await directory.findUser('demo');
    directory.invalidate();
    expect(directory.cached.user('demo')).toBeUndefined();
  });

  it('starts over rather than grow past maxEntries', async () => {
    const directory = createDirectory(counted, { maxEntries: 2 });
    counted.reset();
    await directory.findKey('a');
    await directory.findKey('b');
    await directory.findKey('c'); // evicts everything
    await directory.findKey('a');
    expect(counted.count).toBe(4);
  });
});
