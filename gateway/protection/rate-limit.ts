import type { Context } from 'hono';
import type { GatewayEnv } from '../http/gateway-env';
import { inTurn, type RequestCheck } from '../http/request-check';
import type { RateLimiter } from './rate-limiter';
import type { ClientRateLimits } from './client-rate-limits';
import { RateLimitedError } from './protection-errors';
import { setReplyHeader } from '../http/reply-headers';

// Runs after authentication (it needs the API client): every buyer reply carries
// X-RateLimit-Limit / -Remaining / -Reset; over the limit, 429 with Retry-After.

export interface RateLimitOptions {
  limiter: RateLimiter;
  limits: ClientRateLimits;
  /** Instances sharing each client's limit: each holds limit / instances. */
  instances: number;
}

export function rateLimitedAuth(authenticate: RequestCheck, options: RateLimitOptions): RequestCheck {
  const take = (c: Context<GatewayEnv>, clientId: string, limit: number) => {
    const verdict = options.limiter.take(clientId, Math.max(1, Math.floor(limit / options.instances)));
    setReplyHeader(c, 'x-ratelimit-limit', String(verdict.limit));
    setReplyHeader(c, 'x-ratelimit-remaining', String(verdict.remaining));
    setReplyHeader(c, 'x-ratelimit-reset', String(verdict.resetSeconds));
    if (!verdict.allowed) {
      throw RateLimitedError.after(
        verdict.resetSeconds,
        `API client '${clientId}' made more than ${verdict.limit} requests in this window; retry after ${verdict.resetSeconds} s`,
      );
    }
  };
  const limit: RequestCheck = (c) => {
    const clientId = c.get('buyer').clientId;
    const known = options.limits.inMemory(clientId);
    if (known !== undefined) return take(c, clientId, known);
    return options.limits.of(clientId).then((fetched) => take(c, clientId, fetched));
  };
  return inTurn(authenticate, limit);
}
