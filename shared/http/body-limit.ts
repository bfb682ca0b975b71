import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { requestCutOff } from './request-cut-off';

// Every request body is bounded before anything reads it: a declared Content-Length above
// the limit is refused at once, a chunked body as soon as it passes the limit. The refusal
// is the app's own error, thrown, so its one error mapper answers it.
//
// A declared length is judged from the header alone, never through hono's bodyLimit: that
// looks at c.req.raw.body first, which on Node builds a web Request and starts reading the
// body into a web stream. That costs about a tenth of the gateway's CPU per request, and
// after a refusal it leaves the keep-alive connection unusable (the next request on the
// socket never gets an answer); left alone, the server drains the unread body and the
// connection carries on.

export type BodyCheck = (c: Context) => void | Promise<void>;

export function bodyLimitCheck(maxBytes: number, tooLarge: () => Error): BodyCheck {
  const refuse = (): never => {
    throw tooLarge();
  };
  const counting = bodyLimit({ maxSize: maxBytes, onError: refuse });
  // hono's bodyLimit reads the whole body (counting) and puts it back on the request before next().
  const streamed: BodyCheck = async (c) => {
    try {
      await counting(c, async () => {});
    } catch (error) {
      // The rest of a chunked body is still on the socket, unread: this connection ends here.
      c.header('connection', 'close');
      throw requestCutOff(c, error);
    }
  };
  return (c) => {
    const length = c.req.header('content-length');
    if (length !== undefined && c.req.header('transfer-encoding') === undefined) {
      if (!/^\d+$/.test(length.trim())) return streamed(c);
      if (Number(length) > maxBytes) refuse();
      return;
    }
    // No declared length (chunked): counted as it streams.
    return streamed(c);
  };
}
