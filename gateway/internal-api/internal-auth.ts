import { createHash, timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { AuthenticationError } from '../errors';

// The internal API trusts one service credential, never a buyer token. Both sides are
// hashed first so the comparison is constant-time whatever the lengths.

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
const BEARER = /^Bearer +(\S+) *$/i;
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

export function requireInternalToken(token: string): MiddlewareHandler {
  const expected = digest(token);
  return async (c, next) => {
    const m = BEARER.exec(c.req.header('authorization') ?? '');
    if (!m)
      throw new AuthenticationError('internal API credential required: Authorization: Bearer <INTERNAL_API_TOKEN>');
    if (!timingSafeEqual(digest(m[1]), expected)) {
      // Say why a buyer's JWT fails, so nobody hunts for a bug in their token.
      throw new AuthenticationError(
        JWT_SHAPE.test(m[1])
          ? 'buyer tokens are not accepted by the internal API; use the internal service credential'
          : 'invalid internal API credential',
      );
    }
    await next();
  };
}
