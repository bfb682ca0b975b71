import type { MiddlewareHandler } from 'hono';
import type { GatewayEnv } from '../http/gateway-env';
import type { TokenVerifier } from './token-verifier';

/** Every gateway operation requires a buyer: verified here, read by handlers as c.var.buyer. */
export function authenticate(verifier: TokenVerifier): MiddlewareHandler<GatewayEnv> {
  return async (c, next) => {
    const buyer = await verifier.verify(c.req.header('authorization'));
    c.set('buyer', buyer);
    c.get('log').user = buyer.user.username;
    await next();
  };
}
