import type { Queryable } from '../store/store';

// Each API client's own limit (api_clients.rate_limit, migration 006; NULL: the default),
// read from the store and kept for a while: the hot path must not ask the store per request.

export function clientRateLimits(store: Queryable, options: { defaultLimit: number; ttlMs: number; clock: () => number }) {
  const cache = new Map<string, { limit: number; until: number }>();
  return async function limitOf(clientId: string): Promise<number> {
    const now = options.clock();
    const hit = cache.get(clientId);
    if (hit !== undefined && hit.until > now) return hit.limit;
    let limit: number;
    try {
      const { rows } = await store.query<{ rate_limit: number | null }>('SELECT rate_limit FROM api_clients WHERE id = $1', [clientId]);
      limit = rows[0]?.rate_limit ?? options.defaultLimit;
    } catch {
      // The store down: the last known limit, else the default (the request may still be served from caches).
      limit = hit?.limit ?? options.defaultLimit;
    }
    cache.set(clientId, { limit, until: now + options.ttlMs });
    return limit;
  };
}
