import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { PayloadTooLargeError } from './protection-errors';

// Every request body is bounded before anything reads it: a declared Content-Length above
// the limit is refused at once, a chunked body as soon as it passes the limit. The refusal
// is thrown, so the one error mapper answers it in the gateway's error body.

export function requestBodyLimit(maxBytes: number): MiddlewareHandler {
  return bodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw new PayloadTooLargeError(`the request body is larger than ${maxBytes} bytes, the most this gateway accepts; send fewer items per request`, [
        { path: '', message: `body larger than ${maxBytes} bytes` },
      ]);
    },
  });
}
