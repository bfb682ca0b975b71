// createDirectory(store): the directory the request path uses. Every look-up is cached in
// memory for `ttlMs` (default 30 s), so a gateway request costs no store round trip once
// warm. Consistency, and what invalidate() promises:
// - In this process, a write made through code that calls `directory.invalidate()` (the
//   keys commands, user creation) is seen by the very next look-up: a revoked key stops
//   working at once.
// - Other processes sharing the store (several gateway instances on one PostgreSQL): the
//   writers also send the store's directory-change signal in their transaction
//   (store.notifyDirectoryChanged, a NOTIFY delivered on commit), and every directory
//   built on a store that offers store.onDirectoryChanged drops its whole cache when the
//   signal arrives — within milliseconds, not the TTL. The TTL stays the safety net for
//   what sends no signal (a hand-written SQL change, a store without the capability, the
//   moment a lost listening connection is re-established — that one invalidates too).
//   Lower ttlMs for a tighter net, or set it to 0 to read through on every look-up.
// Negative answers (unknown kid, unknown user) are cached too, for the same ttlMs, so a
// flood of made-up kids does not reach the store.
import type { Queryable, Store } from '../store/store';
import type { Account, ApiKey, BuyerUser, CachedLookups, Directory, Location, Member } from './directory';
import { storeDirectory } from './store-directory';
import { TtlCache } from './ttl-cache';

export interface DirectoryOptions {
  /** How long a look-up is trusted, in ms. Default 30 000; 0 disables caching. */
  ttlMs?: number;
  /** Per look-up kind; past it the cache of that kind starts over. Default 10 000. */
  maxEntries?: number;
  /** Clock, for tests. */
  now?: () => number;
}

export const DEFAULT_DIRECTORY_TTL_MS = 30_000;

export interface CachedDirectory extends Directory {
  cached: CachedLookups;
  /** Stops listening for the store's change signals (the store's close() ends them too). */
  close(): void;
}

export function createDirectory(
  store: Queryable & Partial<Pick<Store, 'onDirectoryChanged'>>,
  options: DirectoryOptions = {},
): CachedDirectory {
  const reader = storeDirectory(store);
  const cacheOptions = {
    ttlMs: options.ttlMs ?? DEFAULT_DIRECTORY_TTL_MS,
    maxEntries: options.maxEntries ?? 10_000,
    now: options.now,
  };
  const keys = new TtlCache<ApiKey | undefined>(cacheOptions);
  const links = new TtlCache<string[]>(cacheOptions);
  const users = new TtlCache<BuyerUser | undefined>(cacheOptions);
  const locations = new TtlCache<Location | undefined>(cacheOptions);
  const members = new TtlCache<Member | undefined>(cacheOptions);
  const accounts = new TtlCache<Account | undefined>(cacheOptions);
  const all = [keys, links, users, locations, members, accounts];
  const invalidate = () => {
    for (const cache of all) cache.clear();
  };
  const unsubscribe = store.onDirectoryChanged?.(invalidate);

  return {
    findKey: (kid) => keys.get(kid, () => reader.findKey(kid).then(deepFreeze)),
    linkedUsernames: (clientId) => links.get(clientId, () => reader.linkedUsernames(clientId).then(deepFreeze)),
    findUser: (username) => users.get(username, () => reader.findUser(username).then(deepFreeze)),
    findLocation: (id) => locations.get(id, () => reader.findLocation(id).then(deepFreeze)),
    findMember: (id) => members.get(id, () => reader.findMember(id).then(deepFreeze)),
    // \u0000 cannot occur in either id, so the pair maps to one key unambiguously.
    findAccount: (memberId, accountId) =>
      accounts.get(`${memberId}\u0000${accountId}`, () => reader.findAccount(memberId, accountId).then(deepFreeze)),
    invalidate,
    cached: {
      key: (kid) => keys.peek(kid),
      linkedUsernames: (clientId) => links.peek(clientId),
      user: (username) => users.peek(username),
      member: (id) => members.peek(id),
    },
    close() {
      unsubscribe?.();
    },
  };
}

// Cached values are shared by every request: frozen, so code that wants a changed copy
// (say, a user's locations filtered or re-sorted) must copy first instead of corrupting
// what the next request sees.
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
