import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Hono } from 'hono';
import { request } from 'node:http';
import { listen, type Listening } from './listen';
import { guardedBy } from './request-guard';
import { jsonContentType } from './json-content-type';
import { sameOriginOnly } from './cross-site';

// The shared guards on a bare app that answers each refusal as {status, rule, field}: in-process
// (app.request), and over a real Node server where the wire framing says whether a body came.

const app = new Hono();
app.use(
  '/json/*',
  guardedBy([jsonContentType], (r, c) => c.json({ rule: r.rule, field: r.field, message: r.message }, r.status)),
);
app.use(
  '/own/*',
  guardedBy([sameOriginOnly()], (r, c) => c.json({ rule: r.rule, field: r.field, message: r.message }, r.status)),
);
app.use(
  '/api/*',
  guardedBy([sameOriginOnly({ methods: 'all' })], (r, c) => c.json({ rule: r.rule, field: r.field }, r.status)),
);
app.all('*', (c) => c.json({ passed: c.req.method }));

const post = (path: string, headers: Record<string, string>, body: string | null = '{}') =>
  app.request(path, { method: 'POST', headers, body });

describe('jsonContentType', () => {
  it('lets application/json through, with or without parameters, in any case', async () => {
    for (const type of [
      'application/json',
      'application/json; charset=utf-8',
      'Application/JSON;charset=UTF-8',
      'application/json ; foo=bar',
    ]) {
      expect((await post('/json/x', { 'content-type': type })).status, type).toBe(200);
    }
  });

  it('refuses every other type with 415 naming the header and the rule, +json types included', async () => {
    for (const type of [
      'text/plain',
      'text/plain;charset=UTF-8',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/jsonx',
      'application/merge-patch+json',
      'text/json',
    ]) {
      const res = await post('/json/x', { 'content-type': type });
      expect(res.status, type).toBe(415);
      expect(await res.json()).toEqual({
        rule: 'request.content-type',
        field: 'header:content-type',
        message: `content-type must be application/json, not '${type}'`,
      });
    }
  });

  it('refuses a body without a content type (in-process, the Request has a body)', async () => {
    const res = await app.request('/json/x', { method: 'POST', body: new TextEncoder().encode('{}') });
    expect(res.status).toBe(415);
    expect(((await res.json()) as { message: string }).message).toMatch(/^content-type is missing/);
  });

  it('refuses a declared non-JSON type on an empty POST (a form with no fields), but not on a bodiless GET or DELETE', async () => {
    expect((await post('/json/reset', { 'content-type': 'text/plain' }, null)).status).toBe(415);
    expect((await app.request('/json/x', { headers: { 'content-type': 'text/plain' } })).status).toBe(200);
    expect((await app.request('/json/x', { method: 'DELETE', headers: { 'content-type': 'text/plain' } })).status).toBe(
      200,
    );
  });

  it('lets a request without a body through: POST with nothing, GET', async () => {
    expect((await post('/json/x', {}, null)).status).toBe(200);
    expect((await app.request('/json/x')).status).toBe(200);
  });
});

describe('jsonContentType over a Node server', () => {
  let server: Listening;
  beforeAll(async () => {
    server = await listen(app.fetch);
  });
  afterAll(() => server.close());

  const send = (headers: Record<string, string | number>, body?: string): Promise<number> =>
    new Promise((resolve, reject) => {
      const req = request(`${server.url}/json/x`, { method: 'POST', headers }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      if (body !== undefined) req.write(body);
      req.end();
    });

  it('refuses a body of declared length or chunked without a content type, and lets an empty one through', async () => {
    expect(await send({ 'content-length': 2 }, '{}')).toBe(415);
    expect(await send({ 'transfer-encoding': 'chunked' }, '{}')).toBe(415);
    expect(await send({ 'content-length': 0 })).toBe(200);
    expect(await send({ 'content-type': 'application/json', 'content-length': 2 }, '{}')).toBe(200);
  });
});

describe('sameOriginOnly', () => {
  it('lets non-browser requests (neither header) and the own origin through', async () => {
    expect((await post('/own/x', {})).status).toBe(200);
    expect((await post('/own/x', { origin: 'http://localhost', 'sec-fetch-site': 'same-origin' })).status).toBe(200);
    expect((await post('/own/x', { 'sec-fetch-site': 'none' })).status).toBe(200);
  });

  it('refuses another site by Sec-Fetch-Site, naming the header', async () => {
    for (const site of ['cross-site', 'same-site']) {
      const res = await post('/own/x', { 'sec-fetch-site': site });
      expect(res.status, site).toBe(403);
      expect(await res.json()).toMatchObject({ rule: 'request.cross-site', field: 'header:sec-fetch-site' });
    }
  });

  it('refuses a foreign or null Origin, even without Sec-Fetch-Site (older browsers)', async () => {
    for (const origin of ['http://127.0.0.1:9999', 'http://localhost:8080', 'null', 'https://localhost']) {
      const res = await post('/own/x', { origin });
      expect(res.status, origin).toBe(403);
      expect(await res.json()).toMatchObject({
        rule: 'request.cross-site',
        field: 'header:origin',
        message: expect.stringContaining('is not http://localhost'),
      });
    }
  });

  it('takes the origins it is told are also its own (a public URL behind a proxy)', async () => {
    const proxied = new Hono();
    proxied.use(
      guardedBy([sameOriginOnly({ alsoOwn: ['https://mock.example/base/'] })], (r, c) =>
        c.json({ rule: r.rule }, r.status),
      ),
    );
    proxied.post('*', (c) => c.text('ok'));
    expect((await proxied.request('/x', { method: 'POST', headers: { origin: 'https://mock.example' } })).status).toBe(
      200,
    );
    expect((await proxied.request('/x', { method: 'POST', headers: { origin: 'http://localhost' } })).status).toBe(200);
    expect((await proxied.request('/x', { method: 'POST', headers: { origin: 'https://other.example' } })).status).toBe(
      403,
    );
  });

  it('leaves GET alone by default (a link from another page), and refuses it with methods: all', async () => {
    expect((await app.request('/own/x', { headers: { 'sec-fetch-site': 'cross-site' } })).status).toBe(200);
    expect((await app.request('/api/x', { headers: { 'sec-fetch-site': 'cross-site' } })).status).toBe(403);
    expect((await app.request('/api/x')).status).toBe(200);
  });
});
