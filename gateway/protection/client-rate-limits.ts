import type { Queryable } from '../store/store';

// Each API client's own limit (api_clients.rate_limit, migration 006; NULL: the default),
// read from the store and kept for a while: the hot path must not ask the store per request.

export interface ClientRateLimits {
  /** The client's limit, from memory or the store. */
  of(clientId: string): Promise<number>;
  /** The client's limit if it is in memory and fresh; undefined otherwise (ask of()). */
  inMemory(clientId: string): number | undefined;
}

export function clientRateLimits(store: Queryable, options: { defaultLimit: number; ttlMs: number; clock: () => number }): ClientRateLimits {
  const cache = new Map<string, { limit: number; until: number }>();
  const fresh = (clientId: string, now: number) => {
    const hit = cache.get(clientId);
    return hit !== undefined && hit.until > now ? hit : undefined;
  };
  return {
    inMemory: (clientId) => fresh(clientId, options.clock())?.limit,
    async of(clientId) {
      const now = options.clock();
      const hit = fresh(clientId, now);
      if (hit !== undefined) return hit.limit;
      let limit: number;
      try {
        const { rows } = await store.query<{ rate_limit: number | null }>('SELECT rate_limit FROM api_clients WHERE id = $1', [clientId]);
        limit = rows[0]?.rate_limit ?? options.defaultLimit;
      } catch {
        // The store down: the last known limit, else the default (the request may still be served from caches).
        limit = cache.get(clientId)?.limit ?? options.defaultLimit;
      }
      cache.set(clientId, { limit, until: now + options.ttlMs });
      return limit;
    },
  };
}
