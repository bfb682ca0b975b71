import { describe, expect, it } from 'vitest';
import type { Store } from '../store/store';
import { createLocalAddressValidator } from '../address/local-address-validator';
import { createExchangeLog } from '../../inspector/exchange-log';
import { createInternalApi } from './internal-api';
import { startInternalApi } from './server';

// The gateway's forwarded exchanges on the internal port, behind the internal credential.
// The inspector never touches the store: an empty stand-in keeps these tests fast.

const token = 'a-long-internal-service-token';
const store = {} as Store;

function internalApi() {
  const feed = createExchangeLog();
  feed.add({
    at: new Date().toISOString(),
    service: 'invoice',
    member: 'M100',
    request: { service: 'invoice' },
    http_status: 503,
    reply: 'down',
    duration_ms: 1,
    faults: [],
  });
  const app = createInternalApi({
    store,
    addressValidator: createLocalAddressValidator(),
    config: { token },
    log: () => {},
    inspector: { feed },
  });
  return app;
}

describe('the inspector on the internal port', () => {
  it('shows the login page, and no exchanges, without the credential', async () => {
    const app = internalApi();
    const page = await app.request('/inspector');
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('id="login"');
    expect((await app.request('/inspector/exchanges')).status).toBe(401);
    expect(
      (await app.request('/inspector/exchanges', { headers: { authorization: 'Bearer not-the-token' } })).status,
    ).toBe(401);
  });

  it('lists the forwarded exchanges with the internal credential, as a header or a session', async () => {
    const app = internalApi();
    const withHeader = await app.request('/inspector/exchanges', { headers: { authorization: `Bearer ${token}` } });
    expect(((await withHeader.json()) as { exchanges: { member: string }[] }).exchanges.map((s) => s.member)).toEqual([
      'M100',
    ]);
    const session = await app.request('/inspector/session', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token }),
    });
    expect(session.status).toBe(204);
    const cookie = session.headers.get('set-cookie')!.split(';')[0];
    expect((await app.request('/inspector/exchanges', { headers: { cookie } })).status).toBe(200);
    // The session opens the inspector only, not the internal API itself.
    expect((await app.request('/internal/outbox', { headers: { cookie } })).status).toBe(401);
  });

  it('is absent when no exchanges are handed over', async () => {
    const app = createInternalApi({
      store,
      addressValidator: createLocalAddressValidator(),
      config: { token },
      log: () => {},
    });
    expect((await app.request('/inspector')).status).toBe(404);
  });

  it('close() does not wait for an open event stream', async () => {
    const running = await startInternalApi({
      store: { query: async () => ({ rows: [] }) } as unknown as Store,
      port: 0,
      hostname: '127.0.0.1',
      env: { MAIL_OUTBOX_DIR: '/tmp/fgw-inspector-outbox-unused' },
      log: () => {},
      outboxPollMs: 600_000,
      exchanges: createExchangeLog(),
    });
    const response = await fetch(`${running.url}/inspector/events`, {
      headers: { authorization: `Bearer dev-internal-token-not-for-production` },
    });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    await reader.read(); // the history
    const closed = await Promise.race([
      running.close().then(() => 'closed'),
      new Promise((resolve) => setTimeout(() => resolve('still waiting'), 3_000)),
    ]);
    expect(closed).toBe('closed');
  });
});
