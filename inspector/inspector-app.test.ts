import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { loadFixture } from '../contracts/payload-examples';
import type { ExchangeRecord } from './exchange';
import { createExchangeLog } from './exchange-log';
import { createInspector } from './inspector-app';
import { SESSION_COOKIE } from './inspector-access';
import { INSPECTOR_SCRIPT } from './inspector-page-script';

const honest = (): ExchangeRecord => ({
  at: '2026-11-23T10:00:00.000Z',
  service: 'item_inquiry',
  member: 'M100',
  request: loadFixture('item-inquiry', 'seller-request'),
  http_status: 200,
  reply: loadFixture('item-inquiry', 'seller-reply'),
  duration_ms: 2,
  faults: [],
});
const faulty = (): ExchangeRecord => {
  const exchange = honest();
  (exchange.reply as { items: { original_part?: string }[] }).items[1].original_part = 'WRONG';
  return { ...exchange, faults: ['wrong-original-part'] };
};

const json = async (response: Response | Promise<Response>): Promise<any> => (await response).json();

/** The inspector mounted under a path, as a server would. */
function mounted(options: { credential?: string; clock?: () => number } = {}) {
  const feed = createExchangeLog({ limit: 10 });
  const inspector = createInspector({ feed, title: 'Test exchanges', ...options });
  const app = new Hono().route('/ui', inspector.app);
  return { feed, inspector, app };
}

/** Reads SSE events off a streaming response one at a time: next() is undefined once the stream ends. */
function eventReader(response: Response) {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  const ready: { event: string; data: any }[] = [];
  return {
    async next(): Promise<{ event: string; data: any } | undefined> {
      while (ready.length === 0) {
        const { value, done } = await reader.read();
        if (done) return undefined;
        text += decoder.decode(value, { stream: true });
        let end: number;
        while ((end = text.indexOf('\n\n')) >= 0) {
          const block = text.slice(0, end);
          text = text.slice(end + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = block
            .split('\n')
            .filter((l) => l.startsWith('data: '))
            .map((l) => l.slice(6))
            .join('\n');
          if (event !== undefined) ready.push({ event, data: JSON.parse(data) });
        }
      }
      return ready.shift();
    },
    cancel: () => reader.cancel(),
  };
}

describe('createInspector', () => {
  it('serves the page with a strict CSP and its API base taken from where it is mounted', async () => {
    const { app } = mounted();
    const response = await app.request('/ui');
    expect(response.status).toBe(200);
    const csp = response.headers.get('content-security-policy')!;
    expect(csp).toMatch(/default-src 'none'/);
    expect(csp).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'/);
    expect(csp).not.toMatch(/unsafe-inline|https?:/);
    const html = await response.text();
    expect(html).toContain('data-base="/ui"');
    expect(html).not.toMatch(/<script src|<link /); // nothing fetched besides the page's own API
  });

  it("the page's script is valid JavaScript (it lives in a string, so nothing else parses it)", () => {
    expect(() => new Function(INSPECTOR_SCRIPT)).not.toThrow();
  });

  it('lists the retained exchanges with verdicts, filtered by service, verdict and rule', async () => {
    const { app, feed } = mounted();
    feed.add(honest());
    feed.add(faulty());
    const all = await json(app.request('/ui/exchanges'));
    expect(all).toMatchObject({ limit: 10, count: 2 });
    expect(all.exchanges.map((s: { verdict: string }) => s.verdict)).toEqual(['ok', 'broken']);
    const broken = await json(app.request('/ui/exchanges?rule=alternate.original-part'));
    expect(broken.exchanges.map((s: { id: number }) => s.id)).toEqual([2]);
    expect((await json(app.request('/ui/exchanges?verdict=ok&service=item_inquiry'))).count).toBe(1);
    expect((await json(app.request('/ui/exchanges?service=invoice'))).count).toBe(0);
  });

  it('refuses an unknown verdict filter naming the field', async () => {
    const response = await mounted().app.request('/ui/exchanges?verdict=bad');
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ path: 'query:verdict', message: expect.stringContaining("'bad'") });
  });

  it('gives one exchange in full: request, reply and each broken rule at its path', async () => {
    const { app, feed } = mounted();
    feed.add(faulty());
    const detail = await json(app.request('/ui/exchanges/1'));
    expect(detail.request.service).toBe('item_inquiry');
    expect(detail.reply.items[1].original_part).toBe('WRONG');
    expect(detail.faults).toEqual(['wrong-original-part']);
    expect(detail.violations).toEqual([
      expect.objectContaining({
        rule: 'alternate.original-part',
        path: '/items/1/original_part',
        expected: 'BP-1001',
        found: 'WRONG',
      }),
    ]);
  });

  it('answers 400 for an id that is not a number and 404 for one not kept', async () => {
    const { app } = mounted();
    const bad = await app.request('/ui/exchanges/abc');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ path: 'path:id' });
    expect((await app.request('/ui/exchanges/99')).status).toBe(404);
  });

  it('streams the history, then each new exchange as it happens', async () => {
    const { app, feed } = mounted();
    feed.add(honest());
    const response = await app.request('/ui/events');
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = eventReader(response);
    // The stream subscribes to the feed before it sends the history: once that is read, a new exchange reaches it.
    const history = await events.next();
    feed.add(faulty());
    const exchange = await events.next();
    await events.cancel();
    expect(history).toMatchObject({ event: 'history', data: { limit: 10, exchanges: [{ id: 1, verdict: 'ok' }] } });
    expect(exchange).toMatchObject({
      event: 'exchange',
      data: { id: 2, verdict: 'broken', rules: ['alternate.original-part'], faults: ['wrong-original-part'] },
    });
  });

  it('close() ends open event streams, so a server can shut down', async () => {
    const { app, inspector } = mounted();
    const response = await app.request('/ui/events');
    const reader = response.body!.getReader();
    await reader.read(); // the history
    inspector.close();
    let done = false;
    while (!done) done = (await reader.read()).done;
    expect(done).toBe(true);
  });

  describe('behind a credential', () => {
    const credential = 'inspector-test-credential-0123';

    it('shows the login page, not the exchanges, to a browser without a session', async () => {
      const { app } = mounted({ credential });
      const page = await (await app.request('/ui')).text();
      expect(page).toContain('id="login"');
      expect(page).not.toContain('id="exchanges"');
      expect((await app.request('/ui/exchanges')).status).toBe(401);
      expect((await app.request('/ui/events')).status).toBe(401);
    });

    it('accepts the credential as a bearer header (tools, curl)', async () => {
      const { app } = mounted({ credential });
      expect((await app.request('/ui/exchanges', { headers: { authorization: `Bearer ${credential}` } })).status).toBe(
        200,
      );
      expect((await app.request('/ui/exchanges', { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
    });

    it('exchanges the credential for an HttpOnly, SameSite=Strict cookie scoped to the inspector', async () => {
      const { app } = mounted({ credential });
      const wrong = await app.request('/ui/session', {
        method: 'POST',
        body: JSON.stringify({ token: 'nope' }),
        headers: { 'content-type': 'application/json' },
      });
      expect(wrong.status).toBe(401);
      expect(wrong.headers.get('set-cookie')).toBeNull();
      const missing = await app.request('/ui/session', {
        method: 'POST',
        body: '{}',
        headers: { 'content-type': 'application/json' },
      });
      expect(missing.status).toBe(400);
      expect(await missing.json()).toMatchObject({ path: '/token' });

      const ok = await app.request('/ui/session', {
        method: 'POST',
        body: JSON.stringify({ token: credential }),
        headers: { 'content-type': 'application/json' },
      });
      expect(ok.status).toBe(204);
      const cookie = ok.headers.get('set-cookie')!;
      expect(cookie).toMatch(new RegExp(`^${SESSION_COOKIE}=\\d+\\.[\\w-]+;`));
      expect(cookie).toMatch(/HttpOnly/);
      expect(cookie).toMatch(/SameSite=Strict/);
      expect(cookie).toMatch(/Path=\/ui/);
      const session = cookie.split(';')[0];
      expect((await app.request('/ui/exchanges', { headers: { cookie: session } })).status).toBe(200);
      expect(await (await app.request('/ui', { headers: { cookie: session } })).text()).toContain('id="exchanges"');
      // A forged or altered cookie is refused.
      expect(
        (await app.request('/ui/exchanges', { headers: { cookie: session.replace(/\.[\w-]+$/, '.forged') } })).status,
      ).toBe(401);
    });

    it('starts a session only for its own page: JSON, same origin', async () => {
      const { app } = mounted({ credential });
      const post = (headers: Record<string, string>) =>
        app.request('/ui/session', { method: 'POST', body: JSON.stringify({ token: credential }), headers });
      // A cross-site form (text/plain) cannot log a browser in, nor can another origin's script.
      const form = await post({ 'content-type': 'text/plain' });
      expect(form.status).toBe(415);
      expect(await form.json()).toEqual({
        message: "content-type must be application/json, not 'text/plain'",
        path: 'header:content-type',
        rule: 'request.content-type',
      });
      for (const headers of [{ 'sec-fetch-site': 'cross-site' }, { origin: 'http://127.0.0.1:9' }] as Record<
        string,
        string
      >[]) {
        const foreign = await post({ 'content-type': 'application/json', ...headers });
        expect(foreign.status).toBe(403);
        expect(await foreign.json()).toMatchObject({ rule: 'request.cross-site' });
        expect(foreign.headers.get('set-cookie')).toBeNull();
      }
      const own = await post({
        'content-type': 'application/json',
        origin: 'http://localhost',
        'sec-fetch-site': 'same-origin',
      });
      expect(own.status).toBe(204);
    });

    it('limits wrong guesses per client address: 10 a minute, then 429 with Retry-After, the right one included', async () => {
      let now = Date.UTC(2026, 10, 23, 10, 0, 0);
      const { app } = mounted({ credential, clock: () => now });
      // The address of the connection, as @hono/node-server passes it.
      const from = (address: string) => ({ incoming: { socket: { remoteAddress: address } } });
      const guess = (token: string, address = '203.0.113.7') =>
        app.request(
          '/ui/session',
          { method: 'POST', body: JSON.stringify({ token }), headers: { 'content-type': 'application/json' } },
          from(address),
        );
      for (let i = 0; i < 10; i++) expect((await guess(`wrong-${i}`)).status).toBe(401);
      const refused = await guess(credential);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('60');
      expect(refused.headers.get('set-cookie')).toBeNull();
      // The API's header is refused from that address too, before it is checked.
      const api = await app.request(
        '/ui/exchanges',
        { headers: { authorization: `Bearer ${credential}` } },
        from('203.0.113.7'),
      );
      expect(api.status).toBe(429);
      // Another address is not held up.
      expect((await guess(credential, '198.51.100.2')).status).toBe(204);
      now += 45_000;
      expect((await guess(credential)).headers.get('retry-after')).toBe('15');
      now += 15_000; // the next window
      expect((await guess(credential)).status).toBe(204);
    });

    it('counts wrong bearer headers on the API as guesses too', async () => {
      const { app } = mounted({ credential, clock: () => Date.UTC(2026, 10, 23, 10, 0, 0) });
      const env = { incoming: { socket: { remoteAddress: '192.0.2.9' } } };
      for (let i = 0; i < 10; i++)
        expect(
          (await app.request('/ui/exchanges', { headers: { authorization: `Bearer wrong-${i}` } }, env)).status,
        ).toBe(401);
      expect(
        (await app.request('/ui/exchanges', { headers: { authorization: `Bearer ${credential}` } }, env)).status,
      ).toBe(429);
      // A cookie-less browser asking without a header is not a guess: it just gets its 401.
      expect(
        (await app.request('/ui/exchanges', {}, { incoming: { socket: { remoteAddress: '192.0.2.10' } } })).status,
      ).toBe(401);
    });
  });
});
