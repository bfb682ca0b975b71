import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { PayloadTooLargeError } from './protection-errors';

// Every request body is bounded before anything reads it: a declared Content-Length above
// the limit is refused at once, a chunked body as soon as it passes the limit. The refusal
// is thrown, so the one error mapper answers it in the gateway's error body.

export function requestBodyLimit(maxBytes: number): MiddlewareHandler {
  const tooLarge = () => {
    throw new PayloadTooLargeError(`the request body is larger than ${maxBytes} bytes, the most this gateway accepts; send fewer items per request`, [
      { path: '', message: `body larger than ${maxBytes} bytes` },
    ]);
  };
  const streamed = bodyLimit({ maxSize: maxBytes, onError: tooLarge });
  return async (c, next) => {
    // A declared length is judged from the header alone. hono's bodyLimit looks at
    // c.req.raw.body first, which on Node builds a web Request and starts reading the body into
    // a web stream: about a tenth of the gateway's CPU per request, for a check the header answers.
    const length = c.req.header('content-length');
    if (length !== undefined && c.req.header('transfer-encoding') === undefined) {
      if (!/^\d+$/.test(length.trim())) return streamed(c, next);
      if (Number(length) > maxBytes) return tooLarge();
      return next();
    }
    // No declared length (chunked): counted as it streams.
    return streamed(c, next);
  };
}
