import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Hono } from 'hono';
import { listen, type Listening } from './listen';
import { SERVER_ANSWERS, SERVER_ANSWER_STATUSES } from './server-answers';
import { rawExchange } from '../testing/raw-exchange';
import { serverAnswerProbes } from '../testing/server-answer-probes';

// What a server started through listen() answers on its own, found on a live loopback socket:
// each of server-answers.ts's statuses is drawn by a raw request, looks as documented (no
// body, no Content-Type; Connection: close where it says so), and the app never saw the
// request, except those whose headers were whole, whose body the app was reading.

let server: Listening;
const seen: string[] = [];
beforeAll(async () => {
  const app = new Hono();
  app.get('/health', (c) => {
    seen.push('GET /health');
    return c.json({ status: 'ok' });
  });
  app.post('/echo', async (c) => {
    seen.push('POST /echo');
    return c.json({ bytes: (await c.req.text()).length });
  });
  server = await listen(app.fetch, {
    connections: { headersTimeoutMs: 200, requestTimeoutMs: 400, maxConnections: 64 },
  });
});
afterAll(() => server?.close());

const probes = () => serverAnswerProbes({ host: `127.0.0.1:${server.port}`, getPath: '/health', postPath: '/echo' });

describe("listen()'s servers, before the app", () => {
  it.each(serverAnswerProbes({ host: 'h', getPath: '/health', postPath: '/echo' }).map((p) => p.name))(
    '%s',
    async (name) => {
      const probe = probes().find((p) => p.name === name)!;
      seen.length = 0;
      const answer = await rawExchange(server.port, probe.parts, { deadlineMs: 3_000 });
      expect(answer.status, answer.raw.slice(0, 200)).toBe(probe.status);
      const documented = SERVER_ANSWERS.find((a) => a.status === probe.status)!;
      expect(documented).toBeDefined();
      // Nothing the API would put there: no body (an empty chunked one at most), no content type.
      expect(answer.body === '' || answer.body === '0\r\n\r\n', answer.body).toBe(true);
      expect(answer.headers['content-type']).toBeUndefined();
      expect(answer.headers.connection).toBe(probe.closes ? 'close' : 'keep-alive');
      expect(answer.closed).toBe(probe.closes);
      if (documented.closes) expect(probe.closes).toBe(true);
      expect(seen).toEqual(probe.reachesApp === true ? ['POST /echo'] : []);
    },
  );

  it('draws every documented status, and only those', () => {
    const drawn = new Set(probes().map((p) => p.status));
    expect([...drawn].sort()).toEqual([...SERVER_ANSWER_STATUSES].sort());
  });
});
