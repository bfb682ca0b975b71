import type { Context } from 'hono';
import type { RequestGuard, RequestRefusal } from './request-guard';

// Every JSON endpoint takes application/json only (any parameters, e.g. charset: JSON is
// UTF-8 by RFC 8259). Not the +json types: no surface documents one, and each names a
// format with its own meaning (merge-patch, problem). A body without a content type is
// refused too: that is what a cross-site <form enctype=text/plain> cannot be told from.

export const CONTENT_TYPE_RULE = 'request.content-type';
export const CONTENT_TYPE_FIELD = 'header:content-type';

const JSON_MEDIA_TYPE = /^application\/json[\t ]*(;|$)/i;
/** Methods that carry no body unless one is sent: a stray content type alone is not refused. */
const BODILESS_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'DELETE']);

/** Whether the request carries a body (of any length, as framed on the wire). */
function hasBody(c: Context): boolean {
  const length = c.req.header('content-length');
  if (length !== undefined) return length.trim() !== '0';
  if (c.req.header('transfer-encoding') !== undefined) return true;
  // On Node, HTTP/1.1 framing says it all: neither header, no body. In-process (app.request),
  // the Request itself knows.
  return (c.env as { incoming?: unknown } | undefined)?.incoming === undefined && c.req.raw.body !== null;
}

const refused = (message: string): RequestRefusal => ({
  status: 415,
  rule: CONTENT_TYPE_RULE,
  field: CONTENT_TYPE_FIELD,
  detail: 'must be application/json',
  message,
});

/** 415 for a body not declared as application/json; requests without a body pass. */
export const jsonContentType: RequestGuard = (c) => {
  const type = c.req.header('content-type');
  if (type === undefined) {
    return hasBody(c)
      ? refused('content-type is missing; a request body must be sent as content-type: application/json')
      : undefined;
  }
  // The hot path (every buyer operation): one header and one regex.
  if (JSON_MEDIA_TYPE.test(type)) return undefined;
  if (BODILESS_METHODS.has(c.req.method) && !hasBody(c)) return undefined;
  const shown = type.length > 100 ? `${type.slice(0, 100)}…` : type;
  return refused(`content-type must be application/json, not '${shown}'`);
};
