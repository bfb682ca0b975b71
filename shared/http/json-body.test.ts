import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Hono } from 'hono';
import { request, type IncomingMessage } from 'node:http';
import { listen, type Listening } from './listen';
import { readJsonBody } from './json-body';

// The one JSON body reader, over a real Node server (where it reads Node's stream itself when
// the length is declared) and in-process (app.request: Hono's own Request).

const app = new Hono();
app.post('/read', async (c) =>
  c.json({ got: await readJsonBody(c, (reason) => new Error(`not JSON: ${reason}`), { emptyAs: 'EMPTY' }) }),
);
app.post('/touched', async (c) => {
  // Something before the reader made Hono build its Request: the (empty) Node stream is
  // consumed and has ended by the time the reader asks.
  void c.req.raw.body;
  // Until Hono's Request has read from the Node stream (the case under test), polled with a deadline.
  const incoming = (c.env as { incoming: IncomingMessage }).incoming;
  const deadline = Date.now() + 5_000;
  while (!incoming.readableDidRead && !incoming.readableEnded) {
    if (Date.now() > deadline) throw new Error('the Node stream was never read');
    await new Promise((resolve) => setImmediate(resolve));
  }
  return c.json({ got: await readJsonBody(c, (reason) => new Error(reason), { emptyAs: 'EMPTY' }) });
});
app.onError((error, c) => c.json({ error: error.message }, 400));

let server: Listening;
beforeAll(async () => {
  server = await listen(app.fetch);
});
afterAll(() => server.close());

/** A raw request, so the test decides on Content-Length versus chunked. */
function send(
  path: string,
  body: Buffer | undefined,
  headers: Record<string, string | number>,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}${path}`, { method: 'POST', headers }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

describe('readJsonBody', () => {
  it('reads a body of declared length from the Node stream', async () => {
    const body = Buffer.from('{"items":[{"id":"é-1"}]}');
    expect(await send('/read', body, { 'content-type': 'application/json', 'content-length': body.length })).toEqual({
      status: 200,
      text: '{"got":{"items":[{"id":"é-1"}]}}',
    });
  });

  it('skips a UTF-8 byte order mark, as Request.text() does', async () => {
    const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":1}')]);
    expect((await send('/read', body, { 'content-length': body.length })).text).toBe('{"got":{"a":1}}');
  });

  it('reads a chunked body through Hono (no declared length)', async () => {
    expect((await send('/read', Buffer.from('{"a":2}'), { 'transfer-encoding': 'chunked' })).text).toBe(
      '{"got":{"a":2}}',
    );
  });

  it('answers an empty body whose stream has already ended, instead of waiting for it forever', async () => {
    expect((await send('/touched', undefined, { 'content-length': 0 })).text).toBe('{"got":"EMPTY"}');
  });

  it('reads a body that Hono already started reading through Hono', async () => {
    const body = Buffer.from('{"c":4}');
    expect((await send('/touched', body, { 'content-length': body.length })).text).toBe('{"got":{"c":4}}');
  });

  it("hands the parser's reason to the app's own error", async () => {
    const body = Buffer.from('{"a":');
    const answer = await send('/read', body, { 'content-length': body.length });
    expect(answer.status).toBe(400);
    expect(answer.text).toContain('not JSON: ');
  });

  it('reads in-process requests (app.request) through Hono', async () => {
    const res = await app.request('/read', {
      method: 'POST',
      body: '{"b":3}',
      headers: { 'content-type': 'application/json' },
    });
    expect(await res.json()).toEqual({ got: { b: 3 } });
  });
});
