import { RequestValidationError } from '../errors';

// Where a catalog launch link points. The link carries the session token (#token=…), so its
// origin must be one the gateway vouches for: GATEWAY_PUBLIC_URL, or, when that is unset
// (development), the request's own origin only if its Host is loopback. Any other Host is the
// client's word: a crafted one would send a browser, and the token, somewhere else.

const LOOPBACK_V4 = /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;

/** localhost, 127.0.0.0/8 or [::1], as the WHATWG URL parser normalises them (127.1 → 127.0.0.1). */
export const isLoopbackHost = (hostname: string): boolean =>
  hostname === 'localhost' || hostname === '[::1]' || LOOPBACK_V4.test(hostname);

/** The base of launch links for this request; throws a 422 naming GATEWAY_PUBLIC_URL when there is none to trust. */
export function launchBase(publicUrl: string | undefined, requestUrl: string): string {
  if (publicUrl !== undefined) return publicUrl.replace(/\/+$/, '');
  const url = new URL(requestUrl);
  if (isLoopbackHost(url.hostname)) return url.origin;
  throw new RequestValidationError(
    `no launch link for Host '${url.host}': GATEWAY_PUBLIC_URL is not set, and without it only a loopback Host (localhost, 127.0.0.0/8, [::1]) is trusted to build one`,
    [{ path: 'header:Host', message: 'not loopback, and GATEWAY_PUBLIC_URL is not set' }],
  );
}
