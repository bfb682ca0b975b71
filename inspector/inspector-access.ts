import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';

// Behind a credential (the gateway's internal port), the page is opened by a browser, which
// cannot send an Authorization header on navigation or on an EventSource. So the credential
// is presented once — typed into the login form, or carried in the URL *fragment*
// (#token=..., never sent to the server, never in logs or Referer) and posted by the page —
// and exchanged for a session cookie: HttpOnly, SameSite=Strict, scoped to the inspector's
// path, expiring. The cookie is an HMAC of its expiry keyed by the credential, so nothing is
// stored and rotating the credential ends every session. Tools may send the header instead.

export const SESSION_COOKIE = 'fgw_inspector';
const SESSION_SECONDS = 8 * 60 * 60;
const BEARER = /^Bearer +(\S+) *$/i;

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
const equal = (a: string, b: string) => timingSafeEqual(digest(a), digest(b));

export interface InspectorAccess {
  /** True when the request carries the credential or a live session cookie. */
  allowed(c: Context): boolean;
  /** Checks a presented credential; on success sets the session cookie on `c`. */
  startSession(c: Context, presented: string, basePath: string): boolean;
  /** Refuses the API (401, JSON) to a request that is not allowed; the page routes decide themselves. */
  guard: MiddlewareHandler;
}

export function inspectorAccess(credential: string, now: () => number = Date.now): InspectorAccess {
  const sign = (expires: number) =>
    createHmac('sha256', credential).update(`inspector-session:${expires}`).digest('base64url');

  const validCookie = (value: string | undefined): boolean => {
    const m = /^(\d+)\.([\w-]+)$/.exec(value ?? '');
    if (!m) return false;
    const expires = Number(m[1]);
    return expires > now() / 1000 && equal(m[2], sign(expires));
  };

  const allowed = (c: Context): boolean => {
    const bearer = BEARER.exec(c.req.header('authorization') ?? '');
    if (bearer) return equal(bearer[1], credential);
    return validCookie(getCookie(c, SESSION_COOKIE));
  };

  return {
    allowed,
    startSession(c, presented, basePath) {
      if (!equal(presented, credential)) return false;
      const expires = Math.floor(now() / 1000) + SESSION_SECONDS;
      setCookie(c, SESSION_COOKIE, `${expires}.${sign(expires)}`, {
        httpOnly: true,
        sameSite: 'Strict',
        path: basePath || '/',
        maxAge: SESSION_SECONDS,
        // Only over https: a loopback http port would otherwise never get the cookie back.
        secure: new URL(c.req.url).protocol === 'https:',
      });
      return true;
    },
    guard: async (c, next) => {
      if (!allowed(c))
        return c.json(
          {
            message:
              'the inspector needs the internal credential: Authorization: Bearer <token>, or a session from its login page',
          },
          401,
        );
      await next();
    },
  };
}
