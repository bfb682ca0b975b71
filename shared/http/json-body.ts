import type { Context } from 'hono';
import type { IncomingMessage } from 'node:http';
import { requestCutOff } from './request-cut-off';

// The one way every app reads a JSON request body. Each app says what "not JSON" becomes in
// its own error type (the gateway's 4422, the internal API's 400, the mock seller's 400);
// the reason passed is the parser's, e.g. "Unexpected end of JSON input".

export type NotJson = (reason: string) => Error;

export interface JsonBodyOptions {
  /** What an empty (or all-blank) body stands for; without it, an empty body is not JSON. */
  emptyAs?: unknown;
}

/**
 * On @hono/node-server with a declared Content-Length (so any body limit has already judged
 * the size, and Node's parser holds the body to it), the body parsed straight from Node's request
 * stream: asking Hono's Request for it builds a web Request, an AbortSignal and a web stream
 * first, which stood out in the gateway's CPU profile (docs/performance.md, "The JSON body read
 * from Node's stream").
 */
function nodeBodyJson(c: Context, notJson: NotJson, options: JsonBodyOptions): Promise<unknown> | undefined {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (
    incoming === undefined ||
    incoming.readableDidRead ||
    incoming.readableEnded ||
    incoming.headers['content-length'] === undefined ||
    incoming.headers['transfer-encoding'] !== undefined
  )
    return undefined;
  // Decoded where the body ends, in the one promise (not a second one chained to it); on(),
  // not once(): a request ends or fails once, and once() wraps each listener in a closure.
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const buffer = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
      // As Request.text() does: a UTF-8 byte order mark is not part of the text.
      const start = buffer.length >= 3 && buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf ? 3 : 0;
      try {
        resolve(parseJsonBody(buffer.toString('utf8', start), notJson, options));
      } catch (error) {
        reject(error as Error);
      }
    });
    incoming.on('error', (error) => reject(requestCutOff(c, error) as Error));
  });
}

/** The reason given when a body is required and none came (rather than the parser's "Unexpected end of JSON input"). */
export const EMPTY_BODY = 'the body is empty; this endpoint requires a JSON body';

function parseJsonBody(text: string, notJson: NotJson, options: JsonBodyOptions): unknown {
  if (text.trim() === '') {
    if (options.emptyAs !== undefined) return options.emptyAs;
    throw notJson(EMPTY_BODY);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw notJson((error as Error).message);
  }
}

export function readJsonBody(c: Context, notJson: NotJson, options: JsonBodyOptions = {}): Promise<unknown> {
  // No closure held in a const here: tsx (keepNames) names such a closure with
  // Object.defineProperty each time it is made, once per request on this path.
  return (
    nodeBodyJson(c, notJson, options) ??
    c.req.text().then(
      (text) => parseJsonBody(text, notJson, options),
      (error: unknown) => Promise.reject(requestCutOff(c, error) as Error),
    )
  );
}

/** The message every app gives for a body that is not JSON. */
export const notJsonMessage = (reason: string): string =>
  reason === EMPTY_BODY ? EMPTY_BODY : `the body is not valid JSON: ${reason}`;
