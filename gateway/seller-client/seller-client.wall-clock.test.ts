import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Hono } from 'hono';
import type { IncomingMessage } from 'node:http';
import { Pool } from 'undici';
import { createSellerClient } from './seller-client';
import {
  bothLeftToStandIn,
  DEADLINE_MS,
  LATE_MS,
  LATE_PATHS,
  listenLate,
  STAND_IN_DEFAULTS,
  STAND_IN_FAILURES,
} from '../../shared/testing/late-replies';
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
    await client.call({
      member: member('/seller'),
      body: { a: 1 },
      headers: { 'x-mock-fault': 'drop-id', 'content-type': 'text/plain' },
    });
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
    await client.call({
      member: member('/seller', { sellerAuth: { kind: 'basic', username: 'gw', password: 'pa:ss' } }),
      body: {},
    });
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
    const outcome = await client.call({
      member: { ...member('/seller'), sellerUrl: `http://127.0.0.1:${port}/seller` },
      body: {},
    });
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
    for (let i = 0; i < 10; i++)
      expect((await fresh.call({ member: member('/seller'), body: { n: i } })).kind).toBe('reply');
    await fresh.close();
    expect(seen).toHaveLength(10);
    // Sequential calls need no more than a couple of pooled sockets, not one each.
    expect(new Set(seen.map((s) => s.remotePort)).size).toBeLessThanOrEqual(2);
  });
});

// undici's own timeouts must not end a call the member's timeout_ms still allows (shared/testing/
// late-replies.ts): the pools here stand in for undici's defaults at 300 ms, and the client's
// own per-call options must override them, as they override undici's real ones.
describe('undici timeouts under the member timeout', () => {
  const lateReply = { status_code: 2000, items: [{ id: 'late', note: 'x'.repeat(200) }] };
  const client = createSellerClient({
    poolFor: (origin, options) => new Pool(origin, { ...STAND_IN_DEFAULTS, ...options }),
  });
  let late: Listening;
  beforeAll(async () => {
    late = await listenLate(JSON.stringify(lateReply));
  });
  afterAll(async () => {
    await client.close();
    await late.close();
  });

  it('the stand-in defaults alone fail both late replies (the test can see the fault)', async () => {
    expect(await bothLeftToStandIn(late.url)).toEqual(STAND_IN_FAILURES);
  });

  it(`answers replies ${LATE_MS} ms late under a ${DEADLINE_MS} ms member timeout, headers or body late`, async () => {
    const outcomes = await Promise.all(
      LATE_PATHS.map((path) =>
        client.call({
          member: { ...member(path), id: `M${path}`, sellerUrl: `${late.url}${path}`, timeoutMs: DEADLINE_MS },
          body: { service: 'item_inquiry' },
        }),
      ),
    );
    for (const outcome of outcomes) {
      expect(outcome).toMatchObject({ kind: 'reply', status: 200, body: lateReply });
      expect(outcome.elapsedMs).toBeGreaterThanOrEqual(LATE_MS - 50);
    }
  });
});
