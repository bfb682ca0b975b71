import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Queryable, Store } from '../store/store';
import { createTestStore } from '../testing/test-store';
import { createDirectory } from './create-directory';
import { storeDirectory } from './store-directory';
import { TtlCache } from './ttl-cache';
import { memberOf } from '../operations/seller-member';
import type { OperationDeps } from '../operations/operation-deps';

// The directory answers the hot path two ways: synchronously from memory (cached.*, peek) and
// through a promise (find*, get). Both must give the same answer whenever the fast one answers,
// and the fast one must never trust an entry the slow one would reload.

describe('TtlCache: peek() answers exactly when get() would answer from memory', () => {
  const TTL = 1_000;
  const cases: {
    name: string;
    at: number;
    prepare?: (cache: TtlCache<string>) => Promise<void> | void;
    fromMemory: boolean;
  }[] = [
    { name: 'just loaded', at: 0, fromMemory: true },
    { name: 'one ms before the ttl ends', at: TTL - 1, fromMemory: true },
    { name: 'when the ttl ends', at: TTL, fromMemory: false },
    { name: 'after the ttl', at: TTL + 1, fromMemory: false },
    { name: 'after clear()', at: 0, prepare: (cache) => cache.clear(), fromMemory: false },
  ];

  it.each(cases)('$name', async ({ at, prepare, fromMemory }) => {
    let now = 0;
    const cache = new TtlCache<string>({ ttlMs: TTL, maxEntries: 10, now: () => now });
    await cache.get('k', async () => 'first');
    await prepare?.(cache);
    now = at;
    const peeked = cache.peek('k');
    let loads = 0;
    const got = await cache.get('k', async () => {
      loads++;
      return 'second';
    });
    expect(loads === 0).toBe(fromMemory);
    if (fromMemory) expect(peeked).toEqual({ value: got });
    else expect(peeked).toBeUndefined();
  });

  it('leaves a load in flight and a failed load to get()', async () => {
    const cache = new TtlCache<string>({ ttlMs: TTL, maxEntries: 10, now: () => 0 });
    let finish: (value: string) => void = () => undefined;
    const inFlight = cache.get('k', () => new Promise<string>((resolve) => (finish = resolve)));
    expect(cache.peek('k')).toBeUndefined();
    finish('loaded');
    await inFlight;
    expect(cache.peek('k')).toEqual({ value: 'loaded' });

    await cache.get('bad', () => Promise.reject(new Error('store down'))).catch(() => undefined);
    expect(cache.peek('bad')).toBeUndefined();
  });
});

describe('createDirectory: cached reads equal store reads', () => {
  let store: Store;
  // The directory is built on the store's queries alone: on PostgreSQL its change signal
  // (LISTEN, which also fires on connecting, and which other test files' writes reach) would
  // drop the cache at any moment. This file compares the two read paths, not invalidation
  // (create-directory.test.ts and directory-changes.test.ts pin that).
  let queriesOnly: Queryable;
  beforeAll(async () => {
    store = await createTestStore();
    queriesOnly = { query: store.query.bind(store) } as Queryable;
  });
  afterAll(async () => {
    await store?.close();
  });

  it('answers keys, links, users and members from memory as the store does, present or absent', async () => {
    const reader = storeDirectory(store);
    const directory = createDirectory(queriesOnly);
    const lookups = [
      {
        kind: 'key',
        id: 'dev-key-1',
        fromStore: () => reader.findKey('dev-key-1'),
        find: () => directory.findKey('dev-key-1'),
        cached: () => directory.cached.key('dev-key-1'),
      },
      {
        kind: 'key',
        id: 'no-such-kid',
        fromStore: () => reader.findKey('no-such-kid'),
        find: () => directory.findKey('no-such-kid'),
        cached: () => directory.cached.key('no-such-kid'),
      },
      {
        kind: 'links',
        id: 'dev-buyer-system',
        fromStore: () => reader.linkedUsernames('dev-buyer-system'),
        find: () => directory.linkedUsernames('dev-buyer-system'),
        cached: () => directory.cached.linkedUsernames('dev-buyer-system'),
      },
      {
        kind: 'links',
        id: 'no-client',
        fromStore: () => reader.linkedUsernames('no-client'),
        find: () => directory.linkedUsernames('no-client'),
        cached: () => directory.cached.linkedUsernames('no-client'),
      },
      {
        kind: 'user',
        id: 'demo',
        fromStore: () => reader.findUser('demo'),
        find: () => directory.findUser('demo'),
        cached: () => directory.cached.user('demo'),
      },
      {
        kind: 'user',
        id: 'ghost',
        fromStore: () => reader.findUser('ghost'),
        find: () => directory.findUser('ghost'),
        cached: () => directory.cached.user('ghost'),
      },
      {
        kind: 'member',
        id: 'M100',
        fromStore: () => reader.findMember('M100'),
        find: () => directory.findMember('M100'),
        cached: () => directory.cached.member('M100'),
      },
      {
        kind: 'member',
        id: 'M999',
        fromStore: () => reader.findMember('M999'),
        find: () => directory.findMember('M999'),
        cached: () => directory.cached.member('M999'),
      },
    ];
    for (const lookup of lookups) {
      expect(lookup.cached(), `${lookup.kind} ${lookup.id} before any read`).toBeUndefined();
      const found = await lookup.find();
      expect(found, `${lookup.kind} ${lookup.id}`).toEqual(await lookup.fromStore());
      expect(lookup.cached(), `${lookup.kind} ${lookup.id} from memory`).toEqual({ value: found });
    }
    // The seeds hold both present ids: the absent ones must differ, or the table tests nothing.
    expect((await directory.findKey('dev-key-1'))?.active).toBe(true);
    expect(await directory.findUser('ghost')).toBeUndefined();
  });

  it('memberOf refuses an unconfigured member alike from memory and from the store', async () => {
    const deps: Pick<OperationDeps, 'directory'> = { directory: createDirectory(queriesOnly) };
    let fromStore: unknown;
    try {
      await memberOf(deps, 'M999');
    } catch (error) {
      fromStore = error;
    }
    expect(deps.directory.cached?.member('M999')).toEqual({ value: undefined });
    expect(() => memberOf(deps, 'M999')).toThrow((fromStore as Error).message);
    expect((fromStore as Error).message).toMatch(/member M999 is referenced by the directory but not configured/);
    const m100 = await memberOf(deps, 'M100');
    expect(memberOf(deps, 'M100')).toBe(m100); // now from memory, without a promise
  });
});
