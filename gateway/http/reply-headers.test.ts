import { Hono, type Context } from 'hono';
import { describe, expect, it } from 'vitest';
import type { GatewayEnv } from './gateway-env';
import { requestLog } from './request-log';
import { replyWithHeaders, setReplyHeader } from './reply-headers';

// The request log gathers reply headers in a plain object; a reply built from them goes out as
// it is, any other response gets them added on the way out (gateway/http/reply-headers.ts).

function appWith(route: (c: Context<GatewayEnv>) => Response | Promise<Response>) {
  const app = new Hono<GatewayEnv>();
  app.use('*', requestLog(undefined));
  app.use('*', async (c, next) => {
    setReplyHeader(c, 'x-ratelimit-limit', '10');
    await next();
  });
  app.get('/', route);
  return app;
}

describe('reply headers', () => {
  it('a reply built from them carries them with its own, once', async () => {
    const response = await appWith((c) =>
      replyWithHeaders(c, '{}', 201, { 'content-type': 'application/json' }),
    ).request('/');
    expect(response.status).toBe(201);
    expect(response.headers.get('x-ratelimit-limit')).toBe('10');
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.headers.get('content-type')).toBe('application/json');
  });

  it('a response made any other way gets them on the way out, keeping its own', async () => {
    const response = await appWith((c) => c.json({ ok: true }, 202, { 'x-own': 'yes' })).request('/');
    expect(response.status).toBe(202);
    expect(response.headers.get('x-own')).toBe('yes');
    expect(response.headers.get('x-ratelimit-limit')).toBe('10');
    expect(await response.json()).toEqual({ ok: true });
  });

  it('a response with immutable headers (Response.redirect) is copied to take them', async () => {
    const response = await appWith(() => Response.redirect('http://127.0.0.1/elsewhere', 302)).request('/');
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('http://127.0.0.1/elsewhere');
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.headers.get('x-ratelimit-limit')).toBe('10');
  });
});
