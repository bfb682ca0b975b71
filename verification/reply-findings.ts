import { bytesText } from './reply-within-limit';

// What the kit and the rules proxy say about a reply they will not judge, or relay: one that
// is not JSON (an HTML error page, text) or one larger than the limit. The names are findings
// of their own, next to the reply rules, and their text quotes the start of what the seller
// sent as text, with only what a terminal could act on escaped.

export const NOT_JSON = 'reply.not-json';
export const TOO_LARGE = 'reply.too-large';

export interface NotJsonFinding {
  rule: typeof NOT_JSON;
  message: string;
  status: number;
  content_type: string | null;
  first_bytes: string;
}
export interface TooLargeFinding {
  rule: typeof TOO_LARGE;
  message: string;
  status: number;
  limit_bytes: number;
  bytes_read: number;
}
export type ReplyFinding = NotJsonFinding | TooLargeFinding;

const JSON_TYPE = /^application\/([\w.+-]+\+)?json\s*(;|$)/i;

/** application/json, or a +json type, with or without parameters. */
export const isJsonContentType = (type: string | undefined): boolean =>
  type !== undefined && JSON_TYPE.test(type.trim());

const FIRST_CHARS = 200;

/** Characters a terminal or a page could act on, or that hide text: controls, format (bidi) and lone surrogates. */
const UNSHOWABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/gu;

/**
 * The start of a body as the text it was, on one line: runs of white space as one space, and
 * only what a terminal could act on or what hides text (controls, bidi marks, lone surrogates)
 * as \uXXXX. Markup stays as written: every report that is a page escapes it as a page must.
 */
export const shownStart = (text: string, chars = FIRST_CHARS): string => {
  const line = text.replace(/[\t\n\r\f\v ]+/g, ' ').trim();
  const cut = [...line];
  return (
    cut
      .slice(0, chars)
      .join('')
      .replace(UNSHOWABLE, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`) +
    (cut.length > chars ? '…' : '')
  );
};

/** The reply's content type or body is not JSON: `undefined` when both are. */
export function notJsonFinding(
  status: number,
  contentType: string | undefined,
  text: string,
): NotJsonFinding | undefined {
  const declared = isJsonContentType(contentType);
  let parses = true;
  try {
    JSON.parse(text);
  } catch {
    parses = false;
  }
  if (declared && parses) return undefined;
  const type = contentType === undefined ? 'no content-type' : `content-type '${shownStart(contentType, 80)}'`;
  const what = !declared ? `${type}, not application/json` : 'a body that is not JSON';
  const first = shownStart(text);
  return {
    rule: NOT_JSON,
    message: `${NOT_JSON}: the seller answered HTTP ${status} with ${what}; first bytes: "${first}"`,
    status,
    content_type: contentType === undefined ? null : shownStart(contentType, 200),
    first_bytes: first,
  };
}

export function tooLargeFinding(status: number, limit: number, bytesRead: number): TooLargeFinding {
  return {
    rule: TOO_LARGE,
    message: `${TOO_LARGE}: the seller's reply (HTTP ${status}) passed the limit of ${bytesText(limit)} (--max-reply-bytes); the exchange was stopped after ${bytesRead} bytes`,
    status,
    limit_bytes: limit,
    bytes_read: bytesRead,
  };
}
