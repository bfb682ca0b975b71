import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { IncomingMessage } from 'node:http';

// A request body that stopped before its end: the client went away, or Node's request timeout
// (HTTP_REQUEST_TIMEOUT_MS) ended it and has already answered 408 itself. Node reports that as
// an Error "aborted" with code ECONNRESET, which the gateway took for its store being down (a
// 503 in its log) and the mock seller for a bug of its own (a 500): it is the client's doing,
// a 408, in every app's own error type through the HTTPException each already maps.

export const REQUEST_CUT_OFF =
  'the request body stopped before its end: the client went away or was too slow (HTTP_REQUEST_TIMEOUT_MS)';

/** The error a body read failed with, or a 408 HTTPException when the request itself was cut off. */
export function requestCutOff(c: Context, error: unknown): unknown {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (incoming === undefined || incoming.complete || !(incoming.destroyed || incoming.errored !== null)) return error;
  return new HTTPException(408, { message: REQUEST_CUT_OFF, cause: error });
}
