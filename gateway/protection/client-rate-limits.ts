import type { Queryable } from '../store/store';
import { TtlCache } from '../directory/ttl-cache';

// Each API client's own limit (api_clients.rate_limit, migration 006; NULL: the default),
// read from the store and kept for a while: the hot path must not ask the store per request.
//
// When a client's entry expires, one query refreshes it (TtlCache shares the load between
// concurrent look-ups) and, meanwhile, every look-up gets the last known limit at once
// rather than waiting: a limit a few seconds stale is harmless, while waiting would add the
// store's latency to every request in flight at each expiry. Only a client's very first
// look-up waits (there is nothing stale to serve). A failed query is not cached: the next
// look-up asks again, and until one succeeds the last known limit (else the default) holds.

export interface ClientRateLimits {
  /** The client's limit, from memory or the store. */
  of(clientId: string): Promise<number>;
  /** The client's limit if it is in memory and fresh; undefined otherwise (ask of()). */
  inMemory(clientId: string): number | undefined;
}

export interface ClientRateLimitsOptions {
  defaultLimit: number;
  ttlMs: number;
  clock: () => number;
  /** Clients kept in memory before starting over (default 10,000). */
  maxEntries?: number;
}

export function clientRateLimits(store: Queryable, options: ClientRateLimitsOptions): ClientRateLimits {
  const maxEntries = options.maxEntries ?? 10_000;
  const fresh = new TtlCache<number>({ ttlMs: options.ttlMs, maxEntries, now: options.clock });
  // What to serve while a refresh runs or the store is down; bounded like the cache.
  const lastKnown = new Map<string, number>();
  const load = async (clientId: string) => {
    const { rows } = await store.query<{ rate_limit: number | null }>(
      'SELECT rate_limit FROM api_clients WHERE id = $1',
      [clientId],
    );
    const limit = rows[0]?.rate_limit ?? options.defaultLimit;
    if (!lastKnown.has(clientId) && lastKnown.size >= maxEntries) lastKnown.clear();
    lastKnown.set(clientId, limit);
    return limit;
  };
  return {
    inMemory: (clientId) => fresh.peek(clientId)?.value,
    of(clientId) {
      const hit = fresh.peek(clientId);
      if (hit !== undefined) return Promise.resolve(hit.value);
      const refresh = fresh.get(clientId, () => load(clientId));
      const stale = lastKnown.get(clientId);
      if (stale !== undefined) {
        refresh.catch(() => {}); // the store down: keep serving the stale limit, retry on the next look-up
        return Promise.resolve(stale);
      }
      // The store down at the first look-up: the default (the request may still be served from caches).
      return refresh.catch(() => options.defaultLimit);
    },
  };
}
