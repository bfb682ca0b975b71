import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from 'node:net';
import type { Store } from '../store/store';
import { createTestStore } from '../testing/test-store';
import { createLocalAddressValidator } from '../address/local-address-validator';
import { listen, type Listening } from '../../shared/http/listen';
import { createInternalApi } from './internal-api';

// What the internal API takes before any handler: only application/json bodies, no request a
// browser sent from another site, no body over its limit — and a 413 leaves the connection usable.

const TOKEN = 'a-long-internal-service-token';
let store: Store;
let app: ReturnType<typeof createInternalApi>;
beforeAll(async () => {
  store = await createTestStore();
  app = createInternalApi({
    store,
    addressValidator: createLocalAddressValidator(),
    config: { token: TOKEN },
    log: () => {},
  });
});
afterAll(() => store.close());

const bearer = { authorization: `Bearer ${TOKEN}` };
const addKey = (headers: Record<string, string>, body: string | Uint8Array | null = '{}') =>
  app.request('/internal/keys', { method: 'POST', headers: { ...bearer, ...headers }, body });

describe('internal API content type', () => {
  it('refuses a body that is not application/json with 415 in its error body, naming the header and rule', async () => {
    const res = await addKey({ 'content-type': 'text/plain' });
    expect(res.status).toBe(415);
    expect(await res.json()).toEqual({
      status_code: 4422,
      message: "content-type must be application/json, not 'text/plain'",
      errors: [{ path: 'header:content-type', message: 'must be application/json', rule: 'request.content-type' }],
    });
    expect((await addKey({}, new TextEncoder().encode('{}'))).status).toBe(415);
  });

  it('lets application/json through to the handler, and GETs without a content type', async () => {
    const res = await addKey({ 'content-type': 'application/json; charset=utf-8' });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toMatch(/clientId/);
    expect((await app.request('/internal/outbox', { headers: bearer })).status).toBe(200);
  });

  it('refuses an empty body where one is required, naming the body', async () => {
    const res = await addKey({ 'content-type': 'application/json' }, null);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      status_code: 4422,
      message: 'the body is empty; this endpoint requires a JSON body',
      errors: [{ path: '', message: 'required' }],
    });
  });
});

describe('internal API cross-site requests', () => {
  it('refuses a request a browser sent from another site, before the credential, with 403 and 4403', async () => {
    const res = await app.request('/internal/outbox', { headers: { 'sec-fetch-site': 'cross-site' } });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({
      status_code: 4403,
      errors: [{ path: 'header:sec-fetch-site', rule: 'request.cross-site' }],
    });
    const foreign = await addKey({ 'content-type': 'application/json', origin: 'http://127.0.0.1:1' });
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toMatchObject({
      status_code: 4403,
      errors: [{ path: 'header:origin', rule: 'request.cross-site' }],
    });
  });

  it('serves its own origin and clients that send neither header', async () => {
    expect(
      (
        await app.request('/internal/outbox', {
          headers: { ...bearer, origin: 'http://localhost', 'sec-fetch-site': 'same-origin' },
        })
      ).status,
    ).toBe(200);
    expect((await app.request('/internal/outbox', { headers: bearer })).status).toBe(200);
  });
});

describe('internal API body limit over a keep-alive connection', () => {
  let server: Listening;
  beforeAll(async () => {
    server = await listen(app.fetch);
  });
  afterAll(() => server.close());

  const request = (body: string) =>
    `POST /internal/keys HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

  it('answers 413 for a body over the limit, then answers the next request on the same socket', async () => {
    const socket = connect(server.port, '127.0.0.1');
    let received = '';
    const answers = () => received.match(/HTTP\/1\.1 \d{3}/g) ?? [];
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    socket.on('error', () => {});
    const waitFor = async (count: number) => {
      const deadline = Date.now() + 5_000;
      while (answers().length < count && Date.now() < deadline && !socket.destroyed)
        await new Promise((r) => setTimeout(r, 10));
    };
    try {
      // One megabyte: more than the server reads ahead, so it is on the wire when the 413 goes out.
      socket.write(request(`{"clientId":"${'x'.repeat(1_000_000)}"}`));
      await waitFor(1);
      expect(answers()).toEqual(['HTTP/1.1 413']);
      expect(received).toContain('request body larger than 65536 bytes');
      socket.write(request('{}'));
      await waitFor(2);
      expect(answers()).toEqual(['HTTP/1.1 413', 'HTTP/1.1 400']);
      expect(received).toMatch(/clientId is required/);
    } finally {
      socket.destroy();
      await closed;
    }
  });
});
