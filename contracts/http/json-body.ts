import type { Context } from 'hono';

// The one way every app reads a JSON request body. Each app says what "not JSON" becomes in
// its own error type (the gateway's 4422, the internal API's 400, the mock seller's 400);
// the reason passed is the parser's, e.g. "Unexpected end of JSON input".

export type NotJson = (reason: string) => Error;

export interface JsonBodyOptions {
  /** What an empty (or all-blank) body stands for; without it, an empty body is not JSON. */
  emptyAs?: unknown;
}

export async function readJsonBody(c: Context, notJson: NotJson, options: JsonBodyOptions = {}): Promise<unknown> {
  const text = await c.req.text();
  if (options.emptyAs !== undefined && text.trim() === '') return options.emptyAs;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw notJson((error as Error).message);
  }
}

/** The message every app gives for a body that is not JSON. */
export const notJsonMessage = (reason: string): string => `the body is not valid JSON: ${reason}`;
