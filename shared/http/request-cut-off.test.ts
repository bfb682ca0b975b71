import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { listen, type Listening } from './listen';
import { readJsonBody } from './json-body';
import { bodyLimitCheck } from './body-limit';
import { REQUEST_CUT_OFF } from './request-cut-off';
import { rawExchange } from '../testing/raw-exchange';

// A body that stops halfway and is ended by Node's request timeout: the client gets Node's 408,
// and the app's reader fails with a 408 of the client's, not Node's "aborted" ECONNRESET (which
// the gateway took for its store being down, and the mock seller for a bug of its own).

const failures: unknown[] = [];
const app = new Hono();
app.post('/read', async (c) => c.json({ got: await readJsonBody(c, (reason) => new Error(reason)) }));
const limit = bodyLimitCheck(1_000_000, () => new Error('too large'));
app.post('/limited', async (c) => {
  await limit(c);
  return c.json({ got: await readJsonBody(c, (reason) => new Error(reason)) });
});
app.onError((error, c) => {
  failures.push(error);
  return c.json({ error: error.message }, 500);
});

let server: Listening;
beforeAll(async () => {
  server = await listen(app.fetch, {
    connections: { headersTimeoutMs: 150, requestTimeoutMs: 300, maxConnections: 16 },
  });
});
afterAll(() => server.close());

/** The app's failure, once it has one (the reader fails when the socket closes, just after Node's answer). */
async function failure(): Promise<unknown> {
  const deadline = Date.now() + 3_000;
  while (failures.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  return failures.shift();
}

describe('a request body cut off by the request timeout', () => {
  it.each([
    ['with Content-Length (read from Node’s stream)', '/read', 'Content-Length: 50\r\n\r\n{"items":'],
    ['chunked (read through Hono’s Request)', '/read', 'Transfer-Encoding: chunked\r\n\r\n9\r\n{"items":\r\n'],
    ['chunked, counted by the body limit first', '/limited', 'Transfer-Encoding: chunked\r\n\r\n9\r\n{"items":\r\n'],
  ])('%s fails the app’s read with a 408 HTTPException', async (_name, path, rest) => {
    failures.length = 0;
    const answer = await rawExchange(
      server.port,
      `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n${rest}`,
    );
    expect(answer.status).toBe(408);
    const error = await failure();
    expect(error).toBeInstanceOf(HTTPException);
    expect((error as HTTPException).status).toBe(408);
    expect((error as HTTPException).message).toBe(REQUEST_CUT_OFF);
  });

  it('leaves a body that arrived whole to the parser', async () => {
    failures.length = 0;
    const answer = await rawExchange(
      server.port,
      'POST /read HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: 9\r\n\r\n{"items":',
    );
    expect(answer.status).toBe(500);
    expect(((await failure()) as Error).message).toMatch(/JSON/);
  });
});
