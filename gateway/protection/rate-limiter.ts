import type { Clock } from '../clock';

// Requests per API client per fixed window, counted in this gateway instance's memory. With
// several instances behind a load balancer each holds its share of the client's limit
// (limit / instances, GATEWAY_RATE_LIMIT_INSTANCES): measured, an exact count in PostgreSQL
// costs a round trip and a row lock per request on the hot path (lab/bench-rate-limit.ts,
// docs/gateway/answers.md), which a per-instance share does not.

export interface RateVerdict {
  allowed: boolean;
  /** The limit this instance applies (the client's share). */
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
}

export interface RateLimiter {
  take(clientId: string, limit: number): RateVerdict;
}

export function createRateLimiter(options: { windowMs: number; clock: Clock }): RateLimiter {
  let windowStart = 0;
  let counts = new Map<string, number>();
  return {
    take(clientId, limit) {
      const now = options.clock();
      const start = now - (now % options.windowMs);
      // A new window forgets every count at once: memory holds only the clients of one window.
      if (start !== windowStart) {
        windowStart = start;
        counts = new Map();
      }
      const used = (counts.get(clientId) ?? 0) + 1;
      const allowed = used <= limit;
      if (allowed) counts.set(clientId, used);
      return {
        allowed,
        limit,
        remaining: Math.max(0, limit - (allowed ? used : limit)),
        resetSeconds: Math.max(1, Math.ceil((start + options.windowMs - now) / 1000)),
      };
    },
  };
}
