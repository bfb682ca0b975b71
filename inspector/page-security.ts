import { createHash } from 'node:crypto';

// The headers of every HTML page the toolkit serves (inspector, its login page, the gateway's
// API reference and catalog session page): plain HTML with one inline style and one inline
// script, allowed by their hashes; nothing else runs, nothing is fetched from another origin,
// no framing, no sniffing, no Referer. page-security.test.ts walks every app's pages.

const hash = (source: string) => `'sha256-${createHash('sha256').update(source, 'utf8').digest('base64')}'`;

export function pageHeaders(
  style: string,
  script: string,
  formAction: 'none' | 'self' = 'none',
): Record<string, string> {
  return {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': `default-src 'none'; script-src ${hash(script)}; style-src ${hash(style)}; connect-src 'self'; base-uri 'none'; form-action '${formAction}'; frame-ancestors 'none'`,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
  };
}

/** Text for an HTML attribute or element body. */
export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);
