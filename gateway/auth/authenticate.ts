import type { Context } from 'hono';
import type { GatewayEnv } from '../http/gateway-env';
import type { RequestCheck } from '../http/request-check';
import type { AuthenticatedBuyer, TokenVerifier } from './token-verifier';

/**
 * Every gateway operation requires a buyer: verified here, read by handlers as c.var.buyer.
 * Without waiting when the verifier has the answer in memory (the common case).
 */
export function authenticate(verifier: TokenVerifier): RequestCheck {
  const admit = (c: Context<GatewayEnv>, buyer: AuthenticatedBuyer) => {
    c.set('buyer', buyer);
    c.get('log').user = buyer.user.username;
  };
  return (c) => {
    const authorization = c.req.header('authorization');
    const known = verifier.verifyFromMemory(authorization);
    if (known !== undefined) return admit(c, known);
    return verifier.verify(authorization).then((buyer) => admit(c, buyer));
  };
}
