import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from './testing/test-gateway';
import { V3_1, V3_2 } from './app';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(() => gw.close());

const INQUIRY = {
  items: [{ id: '1', mfr_code: 'WIX', part_number: '51515' }],
  locations: [{ id: 'L101', member: 'M100', account: 'A-1001' }],
};

describe('gateway app', () => {
  it('answers GET /health when the store answers', async () => {
    const response = await gw.app.request('/health');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok', store: gw.store.kind });
  });

  it('writes one structured log line per request, with its id, user and outcome', async () => {
    const before = gw.logs.length;
    const response = await gw.post(`${V3_2}/item_inquiry`, INQUIRY);
    expect(gw.logs.length).toBe(before + 1);
    const line = gw.logs.at(-1)!;
    expect(line).toMatchObject({
      method: 'POST',
      path: `${V3_2}/item_inquiry`,
      http_status: 200,
      user: 'demo',
      status_code: 2000,
      members: ['M100'],
    });
    expect(line.request_id).toBe(response.headers.get('x-request-id'));
    expect(typeof line.ms).toBe('number');
    expect(() => JSON.stringify(line)).not.toThrow();
    // The buyer operations log from their own handler, other routes through the middleware: one line each either way.
    await gw.app.request('/health');
    await gw.app.request('/no/such/path');
    expect(gw.logs.slice(before + 1).map((l) => [l.path, l.http_status])).toEqual([
      ['/health', 200],
      ['/no/such/path', 404],
    ]);
  });

  // Propagation to the seller (x-request-id on the forwarded call) is pinned in seller-client.wall-clock.test.ts.
  it("keeps the caller's request id", async () => {
    const response = await gw.post(`${V3_2}/item_inquiry`, INQUIRY, { headers: { 'x-request-id': 'buyer-trace-42' } });
    expect(response.headers.get('x-request-id')).toBe('buyer-trace-42');
    expect(gw.logs.at(-1)!.request_id).toBe('buyer-trace-42');
  });

  it('puts the request id on every reply: an operation, a refusal, health, an unknown path', async () => {
    const replies = [
      await gw.post(`${V3_2}/item_inquiry`, INQUIRY),
      await gw.app.request(`${V3_2}/item_inquiry`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      }),
      await gw.app.request('/health'),
      await gw.app.request('/no/such/path'),
    ];
    expect(replies.map((r) => r.status)).toEqual([200, 401, 200, 404]);
    for (const reply of replies) expect(reply.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(replies[0].headers.get('content-type')).toBe('application/json; charset=UTF-8');
    expect(replies[0].headers.get('x-ratelimit-limit')).not.toBeNull();
  });

  it('replaces a request id that does not look like one', async () => {
    const response = await gw.post(`${V3_2}/item_inquiry`, INQUIRY, {
      headers: { 'x-request-id': 'bad id with spaces' },
    });
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('logs a refusal with its overall code and reason', async () => {
    await gw.app.request(`${V3_2}/item_inquiry`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(gw.logs.at(-1)).toMatchObject({
      http_status: 401,
      status_code: 4403,
      error: expect.stringContaining('missing Authorization header'),
    });
  });

  it('refuses a body not declared as application/json with 415 and a 4422 naming the rule, before authentication', async () => {
    const form = await gw.post(`${V3_2}/item_inquiry`, 'items=1', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(415);
    expect(await form.json()).toEqual({
      status_code: 4422,
      message: "content-type must be application/json, not 'application/x-www-form-urlencoded'",
      errors: [{ path: 'header:content-type', message: 'must be application/json', rule: 'request.content-type' }],
    });
    // What a cross-site <form enctype=text/plain> sends, with no token at all.
    const plain = await gw.app.request(`${V3_1}/place_order`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: '{"a":1}',
    });
    expect(plain.status).toBe(415);
    // A body with no content type at all.
    const none = await gw.app.request(`${V3_2}/invoice`, { method: 'POST', body: new TextEncoder().encode('{}') });
    expect(none.status).toBe(415);
    expect(((await none.json()) as { message: string }).message).toMatch(/content-type is missing/);
    expect(
      (
        await gw.post(`${V3_2}/item_inquiry`, INQUIRY, {
          headers: { 'content-type': 'application/json; charset=utf-8' },
        })
      ).status,
    ).toBe(200);
  });

  it('takes only application/json on every other JSON endpoint: catalog, catalog session, catalog token', async () => {
    for (const path of ['/catalog/vehicles', '/catalog-session/api/availability', '/auth/get_catalog_token']) {
      const plain = await gw.post(path, '{}', { headers: { 'content-type': 'text/plain' } });
      expect(plain.status, path).toBe(415);
      expect(await plain.json()).toMatchObject({
        status_code: 4422,
        errors: [{ path: 'header:content-type', rule: 'request.content-type' }],
      });
      const untyped = await gw.app.request(path, { method: 'POST', body: new TextEncoder().encode('{}') });
      expect(untyped.status, path).toBe(415);
    }
    // Requests without a body are not concerned.
    expect((await gw.app.request('/health', { headers: { 'content-type': 'text/plain' } })).status).toBe(200);
  });

  it('answers an unknown path with 404 and an overall code', async () => {
    const response = await gw.app.request('/json/federated/v3_2/nothing', { method: 'POST' });
    expect(response.status).toBe(404);
    expect(((await response.json()) as { status_code: number }).status_code).toBe(3000);
  });
});
