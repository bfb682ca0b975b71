import type { MiddlewareHandler } from 'hono';
import type { Directory } from '../directory/directory';
import type { Clock } from '../clock';
import type { GatewayEnv } from '../http/gateway-env';
import { AuthenticationError } from '../errors';
import { isCatalogSessionToken, type CatalogSession, type CatalogSessions } from './catalog-sessions';

// The catalog page (a browser, not the buyer system) authenticates with the catalog session
// token: Authorization: Bearer <token>. The session acts for the buyer user who launched it,
// so the handlers see the same c.var.buyer as with the buyer system's JWT.

export interface CatalogSessionEnv {
  Variables: GatewayEnv['Variables'] & { session: CatalogSession };
}

const BEARER = /^Bearer[ ]+([^ ]+)[ ]*$/i;
const bearerOf = (header: string | undefined) => (header === undefined ? undefined : BEARER.exec(header)?.[1]);

export interface CatalogSessionAuthDeps {
  sessions: CatalogSessions;
  directory: Directory;
  clock: Clock;
}

export function catalogSessionAuth({
  sessions,
  directory,
  clock,
}: CatalogSessionAuthDeps): MiddlewareHandler<CatalogSessionEnv> {
  return async (c, next) => {
    const token = bearerOf(c.req.header('authorization'));
    if (token === undefined)
      throw new AuthenticationError(
        'missing catalog session token: send Authorization: Bearer <token from /auth/get_catalog_token>',
      );
    const session = await sessions.find(token, new Date(clock()));
    if (session === undefined)
      throw new AuthenticationError(
        'the catalog session token is unknown or has expired: ask the buyer system for a new one',
      );
    const user = await directory.findUser(session.username);
    if (user === undefined)
      throw new AuthenticationError(`the catalog session's user '${session.username}' no longer exists`);
    c.set('session', session);
    c.set('buyer', { clientId: session.clientId ?? 'catalog-session', kid: session.kid ?? '', user });
    c.get('log').user = user.username;
    await next();
  };
}

/** Catalog and search: the buyer system's JWT, or a catalog session token (the catalog page). */
export function buyerOrCatalogSession(
  buyer: MiddlewareHandler<GatewayEnv>,
  session: MiddlewareHandler<CatalogSessionEnv>,
): MiddlewareHandler<GatewayEnv> {
  return (c, next) => {
    const token = bearerOf(c.req.header('authorization'));
    // A JWT has dots; a session token never does, so the shape decides without a look-up.
    if (token !== undefined && isCatalogSessionToken(token))
      return (session as unknown as MiddlewareHandler<GatewayEnv>)(c, next);
    return buyer(c, next);
  };
}
