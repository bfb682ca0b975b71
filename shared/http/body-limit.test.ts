import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Hono } from 'hono';
import { connect } from 'node:net';
import { listen, type Listening } from './listen';
import { bodyLimitCheck } from './body-limit';

// The shared body limit over a real Node server and raw sockets, where keep-alive is decided.

class TooLarge extends Error {}
const check = bodyLimitCheck(1024, () => new TooLarge('too large'));
const app = new Hono();
app.post('/read', async (c) => {
  await check(c);
  return c.json({ length: (await c.req.text()).length });
});
app.onError((error, c) => c.json({ error: error.message }, error instanceof TooLarge ? 413 : 500));

let server: Listening;
beforeAll(async () => {
  server = await listen(app.fetch);
});
afterAll(() => server.close());

/**
 * Writes the requests on one socket, one after another's answer,
 * and returns every status line and whether the server closed.
 */
async function exchange(requests: string[]): Promise<{ answers: string[]; text: string }> {
  const socket = connect(server.port, '127.0.0.1');
  let text = '';
  socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  const answers = () => text.match(/HTTP\/1\.1 \d{3}/g) ?? [];
  try {
    for (const [i, request] of requests.entries()) {
      if (socket.destroyed) break;
      socket.write(request);
      const deadline = Date.now() + 5_000;
      while (answers().length <= i && !socket.destroyed && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 10));
    }
    return { answers: answers(), text };
  } finally {
    socket.destroy();
    await closed;
  }
}

const declared = (body: string) =>
  `POST /read HTTP/1.1\r\nHost: x\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
const chunked = (body: string) =>
  `POST /read HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n${Buffer.byteLength(body).toString(16)}\r\n${body}\r\n0\r\n\r\n`;

describe('bodyLimitCheck', () => {
  it('refuses a declared length over the limit from the header, and the connection serves the next request', async () => {
    const { answers, text } = await exchange([declared('x'.repeat(500_000)), declared('{}')]);
    expect(answers).toEqual(['HTTP/1.1 413', 'HTTP/1.1 200']);
    expect(text).toContain('{"length":2}');
  });

  it('refuses a chunked body once it passes the limit and closes that connection, telling the client so', async () => {
    const { answers, text } = await exchange([chunked('x'.repeat(5_000))]);
    expect(answers).toEqual(['HTTP/1.1 413']);
    expect(text).toMatch(/^connection: close\r$/im);
  });

  it('lets bodies within the limit through, declared or chunked', async () => {
    expect((await exchange([declared('x'.repeat(1024)), chunked('abc')])).answers).toEqual([
      'HTTP/1.1 200',
      'HTTP/1.1 200',
    ]);
  });
});
