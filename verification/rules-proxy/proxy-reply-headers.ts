import type { MiddlewareHandler } from 'hono';

// Every reply from the rules proxy's port is inert where a browser meets it: no sniffing a
// type, no script, no style, no framing. The one exception is a page that sets its own policy
// (the inspector page, whose scripts are allowed by hash).

export const PROXY_CSP = "default-src 'none'; frame-ancestors 'none'";

export function inertReplies(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    c.res.headers.set('x-content-type-options', 'nosniff');
    if (!c.res.headers.has('content-security-policy')) c.res.headers.set('content-security-policy', PROXY_CSP);
  };
}
