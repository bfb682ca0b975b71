import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMisbehavingSeller, type MisbehavingSeller } from '../testing/misbehaving-seller';
import type { Exchange } from './proxied-exchange';
import { createRulesProxy, type RulesProxyOptions } from './rules-proxy';
import { PROXY_CSP } from './proxy-reply-headers';
import { createProxyInspector, INSPECTOR_PATH } from './proxy-inspector';

// What the rules proxy takes and what it gives back, in-process: only JSON from a verifier,
// never a cross-site browser request; never a seller's HTML relayed on its own origin; never
// more than --max-reply-bytes read.

let seller: MisbehavingSeller;
beforeAll(async () => {
  seller = await startMisbehavingSeller();
});
afterAll(async () => {
  await seller.close();
});

const inquiry = JSON.stringify({ service: 'item_inquiry', locations: [], items: [] });

function proxyTo(path: string, options: Partial<RulesProxyOptions> = {}) {
  const exchanges: Exchange[] = [];
  const proxy = createRulesProxy({
    sellerUrl: `${seller.url}${path}`,
    onExchange: (e) => exchanges.push(e),
    ...options,
  });
  // Bytes, not a string: a string body would get text/plain added when no content type is given.
  const post = (headers: Record<string, string> = { 'content-type': 'application/json' }) =>
    proxy.app.request('/seller', { method: 'POST', headers, body: new TextEncoder().encode(inquiry) });
  return { proxy, exchanges, post };
}

const expectInert = (reply: Response) => {
  expect(reply.headers.get('x-content-type-options')).toBe('nosniff');
  expect(reply.headers.get('content-security-policy')).toBe(PROXY_CSP);
};

describe('the rules proxy refuses what no verifier sends', () => {
  const refused: [string, Record<string, string>, number, RegExp][] = [
    [
      'a text/plain form post',
      { 'content-type': 'text/plain' },
      415,
      /content-type must be application\/json, not 'text\/plain'/,
    ],
    [
      'a urlencoded form post',
      { 'content-type': 'application/x-www-form-urlencoded' },
      415,
      /not 'application\/x-www-form-urlencoded'/,
    ],
    [
      'a multipart form post',
      { 'content-type': 'multipart/form-data; boundary=x' },
      415,
      /not 'multipart\/form-data; boundary=x'/,
    ],
    // One rule on every JSON surface of the toolkit: a body must say it is JSON.
    ['a body without a content type', {}, 415, /content-type is missing/],
    [
      'a cross-site request',
      { 'content-type': 'application/json', 'sec-fetch-site': 'cross-site' },
      403,
      /rules proxy: cross-site requests are refused here \(Sec-Fetch-Site: cross-site\)/,
    ],
    [
      'a same-site request from another port',
      { 'content-type': 'application/json', 'sec-fetch-site': 'same-site' },
      403,
      /Sec-Fetch-Site: same-site/,
    ],
    [
      'a request from another origin',
      { 'content-type': 'application/json', origin: 'http://127.0.0.1:9' },
      403,
      /cross-site requests are refused here \(Origin http:\/\/127\.0\.0\.1:9 is not http:\/\/localhost\)/,
    ],
    // A cross-site form is refused for where it comes from before what it carries.
    [
      'a cross-site text/plain form',
      { 'content-type': 'text/plain', 'sec-fetch-site': 'cross-site', origin: 'http://127.0.0.1:9' },
      403,
      /cross-site/,
    ],
  ];
  for (const [what, headers, status, message] of refused) {
    it(`answers ${status} with its own JSON to ${what}, and never calls the seller`, async () => {
      const before = seller.hits.get('/json') ?? 0;
      const { post, exchanges } = proxyTo('/json');
      const reply = await post(headers);
      expect(reply.status).toBe(status);
      expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
      expectInert(reply);
      expect(((await reply.json()) as { message: string }).message).toMatch(message);
      expect(seller.hits.get('/json') ?? 0).toBe(before);
      expect(exchanges).toEqual([]);
    });
  }

  it("passes what Pact verifiers send (application/json, no Origin), and the proxy's own origin", async () => {
    const { post } = proxyTo('/json');
    for (const headers of [
      { 'content-type': 'application/json' },
      { 'content-type': 'application/json; charset=utf-8' },
      { 'content-type': 'application/json', origin: 'http://localhost', 'sec-fetch-site': 'same-origin' },
      { 'content-type': 'application/json', 'sec-fetch-site': 'none' },
    ] as Record<string, string>[]) {
      const reply = await post(headers);
      expect(reply.status, JSON.stringify(headers)).toBe(200);
      expect(await reply.json()).toEqual({ status_code: 2000, items: [] });
      expect(reply.headers.get('content-type')).toBe('application/json');
      expectInert(reply);
    }
  });
});

describe('the rules proxy never relays a non-JSON reply', () => {
  for (const rejectBroken of [true, false]) {
    it(`answers a seller's HTML 500 with its own 502 JSON naming reply.not-json (${rejectBroken ? 'standalone' : 'in the kit, --pass-broken'})`, async () => {
      const { post, exchanges } = proxyTo('/html-500', { rejectBroken });
      const reply = await post();
      expect(reply.status).toBe(502);
      expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
      expectInert(reply);
      // The seller's page is quoted as the text it was, inside the proxy's JSON: inert, and readable.
      const body = (await reply.json()) as { rules_proxy: string; finding: Record<string, unknown> };
      expect(body.rules_proxy).toMatch(
        /^rules proxy: reply\.not-json: the seller answered HTTP 500 with content-type 'text\/html; charset=utf-8', not application\/json; first bytes: "<html><head><title>seller error<\/title>/,
      );
      expect(body.finding).toMatchObject({
        rule: 'reply.not-json',
        status: 500,
        content_type: 'text/html; charset=utf-8',
      });
      expect(body.finding.first_bytes).toMatch(/^<html><head><title>seller error<\/title><\/head><body><script>/);
      expect(body.finding.first_bytes).not.toContain('\\u003c');
      // The exchange says the same, and marks the answer as the proxy's own.
      expect(exchanges).toHaveLength(1);
      expect(exchanges[0]).toMatchObject({
        status: 500,
        proxyAnswer: 'reply.not-json',
        finding: { rule: 'reply.not-json' },
      });
      expect(`rules proxy: ${exchanges[0].problem}`).toBe(body.rules_proxy);
      expect(body.finding).not.toHaveProperty('message');
    });
  }

  it('names a body that is not JSON under a JSON content type, and an HTML 200', async () => {
    const asJson = await proxyTo('/html-as-json').post();
    expect(asJson.status).toBe(502);
    expect(((await asJson.json()) as { rules_proxy: string }).rules_proxy).toMatch(
      /reply\.not-json: the seller answered HTTP 200 with a body that is not JSON; first bytes: "<html>/,
    );
    const html200 = await proxyTo('/html-200').post();
    expect(html200.status).toBe(502);
    expect(((await html200.json()) as { finding: { content_type: string } }).finding.content_type).toBe('text/html');
  });

  it('keeps the inspector page on its own CSP, and marks its JSON inert', async () => {
    const inspector = createProxyInspector('test');
    const { proxy } = proxyTo('/json', { routes: inspector.routes });
    try {
      const page = await proxy.app.request(INSPECTOR_PATH);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-security-policy')).toMatch(/script-src 'sha256-/);
      expect(page.headers.get('x-content-type-options')).toBe('nosniff');
      expectInert(await proxy.app.request(`${INSPECTOR_PATH}/exchanges`));
    } finally {
      inspector.close();
    }
  });
});

describe('the rules proxy reads at most --max-reply-bytes', () => {
  it('stops a reply streaming past the limit, answers 502 reply.too-large naming the limit, and drops the connection', async () => {
    const limit = 64 * 1024;
    const { post, exchanges } = proxyTo('/endless', { maxReplyBytes: limit });
    const reply = await post();
    expect(reply.status).toBe(502);
    expectInert(reply);
    const body = (await reply.json()) as {
      rules_proxy: string;
      finding: { rule: string; limit_bytes: number; bytes_read: number };
    };
    expect(body.rules_proxy).toMatch(
      /^rules proxy: reply\.too-large: the seller's reply \(HTTP 200\) passed the limit of 64 KiB \(65536 bytes\) \(--max-reply-bytes\)/,
    );
    expect(body.finding).toMatchObject({ rule: 'reply.too-large', limit_bytes: limit });
    expect(body.finding.bytes_read).toBeGreaterThan(limit);
    expect(body.finding.bytes_read).toBeLessThan(limit + 1024 * 1024);
    expect(exchanges[0]).toMatchObject({ status: 200, proxyAnswer: 'reply.too-large' });
    // The seller sees the reader hang up long before the 256 MiB it would send.
    const stream = seller.streams[seller.streams.length - 1];
    await expect.poll(() => stream.closedByReader, { timeout: 5_000 }).toBe(true);
    expect(stream.written).toBeLessThan(32 * 1024 * 1024);
  });

  it('relays a reply of exactly the limit', async () => {
    const whole = JSON.stringify({ status_code: 2000, items: [] });
    const reply = await proxyTo('/json', { maxReplyBytes: Buffer.byteLength(whole) }).post();
    expect(reply.status).toBe(200);
    expect(await reply.text()).toBe(whole);
  });
});
