import type { Context } from 'hono';
import type { GatewayEnv } from './gateway-env';

// Headers every buyer reply carries (x-request-id, the rate limit's), gathered in a plain
// object rather than set with c.header(): c.header() builds a web Headers object, and
// @hono/node-server turns that back into a plain object for Node by iterating it (sorted,
// validated), on the hot path (docs/performance.md, "Reply headers as a plain object"). A reply
// built by replyWithHeaders goes out with the plain object as it is; any other response (errors,
// other routes) gets the gathered headers added by the request log on its way out (withReplyHeaders).

/** Records a header for this request's reply (lower-case names: what Node writes). */
export function setReplyHeader(c: Context<GatewayEnv>, name: string, value: string): void {
  c.get('replyHeaders')[name] = value;
}

/** The reply with the gathered headers and `own` (content type and the like), in a plain object. */
export function replyWithHeaders(
  c: Context<GatewayEnv>,
  body: string | Uint8Array,
  status: number,
  own: Record<string, string>,
): Response {
  c.set('replyHeadersApplied', true);
  // The gathered object is this request's own: it takes `own` and goes out as it is.
  const headers = c.get('replyHeaders');
  for (const name in own) headers[name] = own[name];
  return new Response(body, { status, headers });
}

/** The response with the gathered headers added, unless it was built from them. */
export function withReplyHeaders(c: Context<GatewayEnv>, response: Response): Response {
  if (c.get('replyHeadersApplied') === true) return response;
  const headers = c.get('replyHeaders');
  // On the response itself: c.header() after the response exists would copy it. A response
  // whose headers are immutable (one made by fetch or Response.error) is copied once.
  try {
    for (const name in headers) response.headers.set(name, headers[name]);
    return response;
  } catch {
    const copy = new Response(response.body, response);
    for (const name in headers) copy.headers.set(name, headers[name]);
    return copy;
  }
}
