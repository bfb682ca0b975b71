import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Hono } from 'hono';
import type { IncomingMessage } from 'node:http';
import { Pool } from 'undici';
import { createSellerClient } from './seller-client';
import { undiciTimeoutsFor } from '../../shared/http/undici-timeouts';
import type { SellerCall } from './seller-client.types';
import { listen, unusedPort, type Listening } from '../../shared/http/listen';

// A real HTTP server on port 0 standing in for a seller system, one route per behaviour.

interface Seen {
  authorization?: string;
  requestId?: string;
  body?: unknown;
  remotePort?: number;
  fault?: string;
}

let server: Listening;
let base: string;
const LATE_MS = 2_000;
const LATE_REPLY = { status_code: 2000, items: [{ id: 'late', note: 'x'.repeat(200) }] };
const seen: Seen[] = [];

beforeAll(async () => {
  const app = new Hono<{ Bindings: { incoming: IncomingMessage } }>();
  app.post('/seller', async (c) => {
    seen.push({
      authorization: c.req.header('authorization'),
      requestId: c.req.header('x-request-id'),
      body: await c.req.json(),
      remotePort: c.env.incoming.socket.remotePort,
      fault: c.req.header('x-mock-fault'),
    });
    return c.json({ status_code: 2000, items: [] });
  });
  app.post('/error', (c) => c.text('upstream exploded', 502));
  app.post('/not-json', (c) => c.text('<html>oops</html>', 200));
  app.post('/slow', async (c) => {
    await new Promise((resolve) => setTimeout(resolve, 500));
    return c.json({ late: true });
  });
  // Replies 2 s late, the headers or the rest of the body (the first half comes at once).
  app.post('/late-headers', async (c) => {
    await new Promise((resolve) => setTimeout(resolve, LATE_MS));
    return c.json(LATE_REPLY);
  });
  app.post('/late-body', (c) => {
    const text = JSON.stringify(LATE_REPLY);
    const half = Math.floor(text.length / 2);
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(new TextEncoder().encode(text.slice(0, half)));
        await new Promise((resolve) => setTimeout(resolve, LATE_MS));
        controller.enqueue(new TextEncoder().encode(text.slice(half)));
        controller.close();
      },
    });
    return c.body(body, 200, { 'content-type': 'application/json' });
  });
  app.post('/reset', (c) => {
    c.env.incoming.socket.destroy();
    return new Promise<Response>(() => {});
  });
  server = await listen(app.fetch);
  base = server.url;
});

afterAll(async () => {
  await server.close();
});

const member = (path: string, extra: Partial<SellerCall['member']> = {}): SellerCall['member'] => ({
  id: 'M100',
  sellerUrl: `${base}${path}`,
  sellerAuth: { kind: 'none' },
  timeoutMs: 2_000,
  ...extra,
});

describe('seller client', () => {
  const client = createSellerClient();
  afterAll(() => client.close());

  it('posts the body as JSON and returns the parsed reply', async () => {
    seen.length = 0;
    const outcome = await client.call({ member: member('/seller'), body: { service: 'item_inquiry', items: [] } });
    expect(outcome).toMatchObject({ kind: 'reply', status: 200, body: { status_code: 2000, items: [] } });
    expect(seen[0].body).toEqual({ service: 'item_inquiry', items: [] });
    expect(seen[0].authorization).toBeUndefined();
  });

  it('propagates the request id as x-request-id', async () => {
    seen.length = 0;
    await client.call({ member: member('/seller'), body: {}, requestId: 'req-42' });
    expect(seen[0].requestId).toBe('req-42');
  });

  it('sends extra headers the call names, without letting them replace its own', async () => {
    seen.length = 0;
    await client.call({ member: member('/seller'), body: { a: 1 }, headers: { 'x-mock-fault': 'drop-id', 'content-type': 'text/plain' } });
    expect(seen[0].fault).toBe('drop-id');
    expect(seen[0].body).toEqual({ a: 1 });
  });

  it('sends a bearer token when the member uses bearer auth', async () => {
    seen.length = 0;
    await client.call({ member: member('/seller', { sellerAuth: { kind: 'bearer', token: 's3cret' } }), body: {} });
    expect(seen[0].authorization).toBe('Bearer s3cret');
  });

  it('sends basic credentials when the member uses basic auth', async () => {
    seen.length = 0;
    await client.call({ member: member('/seller', { sellerAuth: { kind: 'basic', username: 'gw', password: 'pa:ss' } }), body: {} });
    expect(seen[0].authorization).toBe(`Basic ${Buffer.from('gw:pa:ss').toString('base64')}`);
  });

  it('classifies a non-2xx answer as http-error with the status and body', async () => {
    const outcome = await client.call({ member: member('/error'), body: {} });
    expect(outcome).toMatchObject({ kind: 'http-error', status: 502, body: 'upstream exploded' });
  });

  it('classifies a 2xx body that is not JSON as malformed', async () => {
    const outcome = await client.call({ member: member('/not-json'), body: {} });
    expect(outcome).toMatchObject({ kind: 'malformed', status: 200, body: '<html>oops</html>' });
  });

  it('gives up at the deadline and says timeout', async () => {
    const outcome = await client.call({ member: member('/slow'), body: {}, deadlineMs: 100 });
    expect(outcome.kind).toBe('timeout');
    expect(outcome.elapsedMs).toBeGreaterThanOrEqual(90);
    expect(outcome.elapsedMs).toBeLessThan(450);
  });

  it('uses the member timeout when the call sets no deadline', async () => {
    const outcome = await client.call({ member: member('/slow', { timeoutMs: 80 }), body: {} });
    expect(outcome.kind).toBe('timeout');
  });

  it('classifies a refused connection as unreachable', async () => {
    const port = await unusedPort();
    const outcome = await client.call({ member: { ...member('/seller'), sellerUrl: `http://127.0.0.1:${port}/seller` }, body: {} });
    expect(outcome.kind).toBe('unreachable');
    if (outcome.kind === 'unreachable') expect(outcome.message).toContain('ECONNREFUSED');
    expect(outcome).toMatchObject({ sent: false });
  });

  it('classifies a connection reset mid-request as unreachable', async () => {
    const outcome = await client.call({ member: member('/reset'), body: {} });
    expect(outcome.kind).toBe('unreachable');
    // The seller had the request when it reset: it may have acted on it.
    expect(outcome).toMatchObject({ sent: true });
  });

  it('classifies an unusable seller URL as unreachable instead of throwing', async () => {
    const outcome = await client.call({ member: { ...member('/seller'), sellerUrl: 'not a url' }, body: {} });
    expect(outcome).toMatchObject({ kind: 'unreachable', sent: false });
  });

  it('keeps the connection alive across sequential calls to one seller', async () => {
    const fresh = createSellerClient();
    seen.length = 0;
    for (let i = 0; i < 10; i++) expect((await fresh.call({ member: member('/seller'), body: { n: i } })).kind).toBe('reply');
    await fresh.close();
    expect(seen).toHaveLength(10);
    // Sequential calls need no more than a couple of pooled sockets, not one each.
    expect(new Set(seen.map((s) => s.remotePort)).size).toBeLessThanOrEqual(2);
  });
});

// undici's own 300 s timeouts (headers, and between body chunks) must not end a call that the
// member's timeout_ms still allows. Waiting 300 s is no test, so the pools here stand in for
// undici's defaults with 300 ms ones (undici's coarse timers fire them after about 1 to 1.5 s);
// the client's own per-call options must override them, as they override undici's real ones.
describe('undici timeouts under the member timeout', () => {
  const STAND_IN_DEFAULTS = { headersTimeout: 300, bodyTimeout: 300 };
  const client = createSellerClient({ poolFor: (origin, options) => new Pool(origin, { ...STAND_IN_DEFAULTS, ...options }) });
  afterAll(() => client.close());

  it('the stand-in defaults alone fail both late replies (the test can see the fault)', async () => {
    const pool = new Pool(base, { ...STAND_IN_DEFAULTS, connections: 2 });
    try {
      const read = async (path: string) => (await pool.request({ method: 'POST', path, body: '{}' })).body.text();
      const [headersLate, bodyLate] = await Promise.allSettled([read('/late-headers'), read('/late-body')]);
      expect(headersLate).toMatchObject({ status: 'rejected', reason: { code: 'UND_ERR_HEADERS_TIMEOUT' } });
      expect(bodyLate).toMatchObject({ status: 'rejected', reason: { code: 'UND_ERR_BODY_TIMEOUT' } });
    } finally {
      await pool.destroy();
    }
  });

  it('answers replies 2 s late under a 2.6 s member timeout, headers or body late', async () => {
    expect(undiciTimeoutsFor(2_600)).toEqual({ headersTimeout: 0, bodyTimeout: 0 });
    const outcomes = await Promise.all(
      ['/late-headers', '/late-body'].map((path) =>
        client.call({ member: member(path, { id: `M${path}`, timeoutMs: 2_600 }), body: { service: 'item_inquiry' } }),
      ),
    );
    for (const outcome of outcomes) {
      expect(outcome).toMatchObject({ kind: 'reply', status: 200, body: LATE_REPLY });
      expect(outcome.elapsedMs).toBeGreaterThanOrEqual(LATE_MS - 50);
    }
  });
});
