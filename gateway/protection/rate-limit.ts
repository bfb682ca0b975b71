import type { MiddlewareHandler } from 'hono';
import type { GatewayEnv } from '../http/gateway-env';
import type { RateLimiter } from './rate-limiter';
import { RateLimitedError } from './protection-errors';
import { setReplyHeader } from '../http/reply-headers';

// Runs after authentication (it needs the API client): every buyer reply carries
// X-RateLimit-Limit / -Remaining / -Reset; over the limit, 429 with Retry-After.

export interface RateLimitOptions {
  limiter: RateLimiter;
  limitOf: (clientId: string) => Promise<number>;
  /** Instances sharing each client's limit: each holds limit / instances. */
  instances: number;
}

export function rateLimitedAuth(auth: MiddlewareHandler<GatewayEnv>, options: RateLimitOptions): MiddlewareHandler<GatewayEnv> {
  return (c, next) =>
    auth(c, async () => {
      const clientId = c.get('buyer').clientId;
      const share = Math.max(1, Math.floor((await options.limitOf(clientId)) / options.instances));
      const verdict = options.limiter.take(clientId, share);
      setReplyHeader(c, 'x-ratelimit-limit', String(verdict.limit));
      setReplyHeader(c, 'x-ratelimit-remaining', String(verdict.remaining));
      setReplyHeader(c, 'x-ratelimit-reset', String(verdict.resetSeconds));
      if (!verdict.allowed) {
        throw RateLimitedError.after(
          verdict.resetSeconds,
          `API client '${clientId}' made more than ${verdict.limit} requests in this window; retry after ${verdict.resetSeconds} s`,
        );
      }
      await next();
    });
}
