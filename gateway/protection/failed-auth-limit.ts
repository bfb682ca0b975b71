import type { Context } from 'hono';
import { clientAddress } from '../../shared/client-address';
import type { FailedAttempts } from '../../shared/failed-attempts';
import { AuthenticationError } from '../errors';
import type { GatewayEnv } from '../http/gateway-env';
import type { RequestCheck } from '../http/request-check';
import { RateLimitedError } from './protection-errors';

// Requests failing authentication, counted per client address (GATEWAY_AUTH_FAILURE_LIMIT a
// minute, in this instance's memory): past the limit the address gets 429 with Retry-After
// before its token is looked at, so guessing keys or sending junk tokens (an unknown key id is
// a directory look-up) costs the gateway a map look-up. Authenticated requests never count.

export function failedAuthLimit(authenticate: RequestCheck, attempts: FailedAttempts): RequestCheck {
  const count = (address: string, error: unknown) => {
    if (error instanceof AuthenticationError) attempts.failed(address);
  };
  return (c: Context<GatewayEnv>) => {
    const address = clientAddress(c);
    const blocked = attempts.blockedFor(address);
    if (blocked > 0) {
      throw new RateLimitedError(
        `more than ${attempts.limit} requests from this address failed authentication this minute; retry after ${blocked} s`,
        [{ path: 'header:Authorization', message: 'too many failed authentications from this address' }],
        { retryAfterSeconds: blocked },
      );
    }
    let waiting: void | Promise<void>;
    try {
      waiting = authenticate(c);
    } catch (error) {
      count(address, error);
      throw error;
    }
    return waiting?.catch((error: unknown) => {
      count(address, error);
      throw error;
    });
  };
}
