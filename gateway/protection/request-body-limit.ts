import { bodyLimit } from 'hono/body-limit';
import type { RequestCheck } from '../http/request-check';
import { PayloadTooLargeError } from './protection-errors';

// Every request body is bounded before anything reads it: a declared Content-Length above
// the limit is refused at once, a chunked body as soon as it passes the limit. The refusal
// is thrown, so the one error mapper answers it in the gateway's error body.

export function requestBodyLimit(maxBytes: number): RequestCheck {
  const tooLarge = () => {
    throw new PayloadTooLargeError(`the request body is larger than ${maxBytes} bytes, the most this gateway accepts; send fewer items per request`, [
      { path: '', message: `body larger than ${maxBytes} bytes` },
    ]);
  };
  const counting = bodyLimit({ maxSize: maxBytes, onError: tooLarge });
  // hono's bodyLimit reads the whole body (counting) and puts it back on the request before next().
  const streamed: RequestCheck = async (c) => {
    await counting(c, async () => {});
  };
  return (c) => {
    // A declared length is judged from the header alone. hono's bodyLimit looks at
    // c.req.raw.body first, which on Node builds a web Request and starts reading the body into
    // a web stream: about a tenth of the gateway's CPU per request, for a check the header answers.
    const length = c.req.header('content-length');
    if (length !== undefined && c.req.header('transfer-encoding') === undefined) {
      if (!/^\d+$/.test(length.trim())) return streamed(c);
      if (Number(length) > maxBytes) tooLarge();
      return;
    }
    // No declared length (chunked): counted as it streams.
    return streamed(c);
  };
}
