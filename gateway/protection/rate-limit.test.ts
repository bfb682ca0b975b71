import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../testing/test-gateway';
import { createGateway, V3_2 } from '../app';
import { gatewayConfig } from '../gateway-config';

// Rate limits per API client: X-RateLimit-* on every buyer reply, 429 with Retry-After over
// the limit, a per-client limit from the directory, a share per instance, a fresh window.

let gw: TestGateway;
let now = Date.UTC(2026, 2, 3, 8, 0, 0);
const clock = () => now;
beforeAll(async () => {
  gw = await startTestGateway({ clock, config: { protection: { rateLimit: 3, rateLimitWindowMs: 60_000 } } });
});
afterAll(() => gw.close());

const INQUIRY = {
  items: [{ id: '1', mfr_code: 'WIX', part_number: '51515' }],
  locations: [{ id: 'L101', member: 'M100', account: 'A-1001' }],
};
const headersOf = (r: Response) => ({
  limit: r.headers.get('x-ratelimit-limit'),
  remaining: r.headers.get('x-ratelimit-remaining'),
  reset: r.headers.get('x-ratelimit-reset'),
  retryAfter: r.headers.get('retry-after'),
});

describe('rate limits per API client', () => {
  it('counts down on every reply, refuses the next with 429 and Retry-After, and a new window starts afresh', async () => {
    now = Date.UTC(2026, 2, 3, 8, 0, 0);
    const seen = [];
    for (let i = 0; i < 3; i++) {
      const r = await gw.post(`${V3_2}/item_inquiry`, INQUIRY);
      expect(r.status).toBe(200);
      seen.push(headersOf(r));
    }
    expect(seen.map((h) => h.remaining)).toEqual(['2', '1', '0']);
    expect(seen[0]).toMatchObject({ limit: '3', reset: '60', retryAfter: null });

    now += 15_000;
    const refused = await gw.post(`${V3_2}/invoice`, { member: 'M100' });
    expect(refused.status).toBe(429);
    expect(headersOf(refused)).toEqual({ limit: '3', remaining: '0', reset: '45', retryAfter: '45' });
    const body = (await refused.json()) as { status_code: number; message: string; status?: string };
    expect(body.status_code).toBe(3000);
    expect(body.message).toContain("API client 'dev-buyer-system'");
    expect(body.status).toBe('error'); // invoice keeps its own envelope

    // Another client has its own count.
    expect((await gw.post(`${V3_2}/item_inquiry`, { items: INQUIRY.items }, { user: 'other' })).status).toBe(200);

    now += 45_000;
    const fresh = await gw.post(`${V3_2}/item_inquiry`, INQUIRY);
    expect(fresh.status).toBe(200);
    expect(headersOf(fresh).remaining).toBe('2');
  });

  it('an error reply carries the headers too', async () => {
    now = Date.UTC(2026, 2, 3, 9, 0, 0);
    const r = await gw.post(`${V3_2}/item_inquiry`, { items: [] });
    expect(r.status).toBe(422);
    expect(headersOf(r).remaining).toBe('2');
  });

  it("honours the client's own limit from the directory, shared between instances", async () => {
    now = Date.UTC(2026, 2, 3, 10, 0, 0);
    await gw.store.query(`UPDATE api_clients SET rate_limit = 10 WHERE id = 'dev-buyer-system'`);
    const app = createGateway({
      store: gw.store,
      directory: gw.directory,
      sellerClient: gw.sellerClient,
      clock,
      logger: false,
      config: gatewayConfig({ protection: { rateLimit: 3, rateLimitInstances: 2 } }),
    });
    const call = async () =>
      app.request(`${V3_2}/item_inquiry`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${await gw.token()}` },
        body: JSON.stringify(INQUIRY),
      });
    const first = await call();
    expect(headersOf(first)).toMatchObject({ limit: '5', remaining: '4' });
    for (let i = 0; i < 4; i++) expect((await call()).status).toBe(200);
    expect((await call()).status).toBe(429);
  });

  it('a client without a valid token is refused before any count (401, no headers)', async () => {
    const r = await gw.post(`${V3_2}/item_inquiry`, INQUIRY, { token: 'not-a-token' });
    expect(r.status).toBe(401);
    expect(r.headers.get('x-ratelimit-limit')).toBeNull();
  });
});

describe('requests failing authentication, per client address', () => {
  it('refuses an address past GATEWAY_AUTH_FAILURE_LIMIT a minute with 429 and Retry-After before checking its token; others go on', async () => {
    now = Date.UTC(2026, 2, 3, 11, 0, 0);
    const app = createGateway({
      store: gw.store,
      directory: gw.directory,
      sellerClient: gw.sellerClient,
      clock,
      logger: false,
      config: gatewayConfig({ protection: { authFailureLimit: 3 } }),
    });
    // The connection's address, as @hono/node-server passes it to the app; marked read, so the
    // body comes from the Request as it does in-process.
    const call = (token: string, address: string) =>
      app.request(
        `${V3_2}/item_inquiry`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify(INQUIRY),
        },
        { incoming: { socket: { remoteAddress: address }, readableDidRead: true } },
      );
    const good = await gw.token();
    // Authenticated requests never count.
    for (let i = 0; i < 5; i++) expect((await call(good, '203.0.113.5')).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await call(`junk-${i}`, '203.0.113.5')).status).toBe(401);
    now += 20_000;
    const refused = await call(good, '203.0.113.5');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('40');
    const body = (await refused.json()) as { status_code: number; message: string; errors: { path: string }[] };
    expect(body.status_code).toBe(3000);
    expect(body.message).toMatch(/failed authentication/);
    expect(body.errors[0].path).toBe('header:Authorization');
    // Another address is not held up, with a good token or a bad one.
    expect((await call(good, '198.51.100.4')).status).toBe(200);
    expect((await call('junk', '198.51.100.4')).status).toBe(401);
    now += 40_000; // the next minute
    expect((await call(good, '203.0.113.5')).status).toBe(200);
  });
});
