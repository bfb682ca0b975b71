import type { Context } from 'hono';
import type { RequestGuard, RequestRefusal } from './request-guard';

// JSON-only surfaces that a browser on another site could reach (the mock seller's control
// API, the inspector's session, the internal API) refuse requests a browser marks as coming
// from elsewhere. Browsers send Sec-Fetch-Site and Origin on such requests; curl, the kit and
// npm run keys send neither and are not affected.

export const CROSS_SITE_RULE = 'request.cross-site';

/** Sec-Fetch-Site values of a request the server's own pages (or the user, typing a URL) made. */
const OWN_SITE = new Set(['same-origin', 'none']);
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface SameOriginOptions {
  /** 'state-changing' (default) lets GET, HEAD and OPTIONS through: a page link may open them. */
  methods?: 'all' | 'state-changing';
  /**
   * Origins that are also this server's own, e.g. its public URL behind a proxy (the request's own origin always is).
   */
  alsoOwn?: string[];
}

const refused = (field: string, detail: string, message: string): RequestRefusal => ({
  status: 403,
  rule: CROSS_SITE_RULE,
  field,
  detail,
  message,
});

/** 403 for a request a browser sent from another origin. */
export function sameOriginOnly(options: SameOriginOptions = {}): RequestGuard {
  const all = options.methods === 'all';
  const alsoOwn = new Set((options.alsoOwn ?? []).map((url) => new URL(url).origin.toLowerCase()));
  return (c: Context) => {
    if (!all && SAFE_METHODS.has(c.req.method)) return undefined;
    const site = c.req.header('sec-fetch-site');
    if (site !== undefined && !OWN_SITE.has(site.trim().toLowerCase())) {
      return refused(
        'header:sec-fetch-site',
        "must be 'same-origin' or 'none'",
        `cross-site requests are refused here (Sec-Fetch-Site: ${site.slice(0, 40)}); call this API from its own origin or a non-browser client`,
      );
    }
    const origin = c.req.header('origin');
    if (origin !== undefined) {
      const own = new URL(c.req.url).origin;
      const presented = origin.trim().toLowerCase();
      if (presented !== own.toLowerCase() && !alsoOwn.has(presented)) {
        return refused(
          'header:origin',
          `must be ${own}`,
          `cross-site requests are refused here (Origin ${origin.slice(0, 100)} is not ${own}); call this API from its own origin or a non-browser client`,
        );
      }
    }
    return undefined;
  };
}
