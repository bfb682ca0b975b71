import type { MiddlewareHandler } from 'hono';
import { isJsonContentType } from './reply-findings';

// What the rules proxy (on the paths it relays) and the kit's state endpoint take: JSON from a
// verifier, never a browser form from another site. A cross-site <form enctype=text/plain> needs no CORS preflight, so
// without this any page could make the proxy call the seller and show what came back.
// Pact verifiers (the Rust core, pact-jvm) send `Content-Type: application/json`, no Origin and
// no Sec-Fetch-* headers, so they pass; a request without a content type is taken as JSON
// (curl, scripts), as on the gateway.

/** `Sec-Fetch-Site` values a browser sends for a request the user or the page's own origin made. */
const OWN_FETCH_SITES = new Set(['same-origin', 'none']);

/** `who` opens each refusal's message, e.g. 'rules proxy'. */
export function refuseCrossSiteAndNonJson(who: string): MiddlewareHandler {
  return async (c, next) => {
    const site = c.req.header('sec-fetch-site');
    const origin = c.req.header('origin');
    const own = new URL(c.req.url).origin;
    if (site !== undefined && !OWN_FETCH_SITES.has(site.trim().toLowerCase()))
      return c.json({ message: `${who}: cross-origin requests are refused (sec-fetch-site: ${site})`, path: 'header:sec-fetch-site' }, 403);
    if (origin !== undefined && origin !== own)
      return c.json({ message: `${who}: requests from another origin are refused (origin ${origin}, this is ${own})`, path: 'header:origin' }, 403);
    const type = c.req.header('content-type');
    if (type !== undefined && !isJsonContentType(type))
      return c.json({ message: `${who}: content-type must be application/json, not '${type}'`, path: 'header:content-type' }, 415);
    await next();
  };
}
