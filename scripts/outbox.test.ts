import { describe, it, expect, beforeEach, afterEach } from 'vitest';
import type { Store } from '../gateway/store/store';
import { createTestStore } from '../gateway/testing/test-store';
import { createLocalAddressValidator } from '../gateway/address/local-address-validator';
import { createSmtpMailer } from '../gateway/mail/smtp-mailer';
import { startLoopbackSmtpServer, type LoopbackSmtpServer } from '../gateway/testing/loopback-smtp-server';
import { createInternalApi } from '../gateway/internal-api/internal-api';
import { startInternalApi } from '../gateway/internal-api/server';
import { DEV_INTERNAL_API_TOKEN } from '../gateway/internal-api/internal-api-config';
import { validCreateUserRequest } from '../gateway/testing/create-user-request';
import { httpOutboxBackend, runOutboxCommand, storeOutboxBackend, type OutboxBackend } from './outbox';

let store: Store;
let smtp: LoopbackSmtpServer;
beforeEach(async () => {
  store = await createTestStore();
  smtp = await startLoopbackSmtpServer();
});
afterEach(async () => {
  await smtp.stop();
  await store.close();
});

async function createUser(username: string) {
  const app = createInternalApi({
    store,
    addressValidator: createLocalAddressValidator(),
    config: { token: 'outbox-script-test-token' },
    log: () => {},
  });
  const res = await app.request('/internal/users/create', {
    method: 'POST',
    headers: { authorization: 'Bearer outbox-script-test-token', 'content-type': 'application/json' },
    body: JSON.stringify(validCreateUserRequest({ username, email: `${username}@x.example` })),
  });
  expect(res.status).toBe(200);
}

async function run(argv: string[], backend: OutboxBackend) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runOutboxCommand(argv, { backend, out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out, err };
}

describe('npm run outbox', () => {
  it('shows each message with its state, attempts and last error, and retry delivers once the server is back', async () => {
    await createUser('nina');
    await smtp.stop();
    const backend = storeOutboxBackend(
      store,
      createSmtpMailer({ url: smtp.url, timeoutMs: 2_000 }),
      'no-reply@gateway.test',
    );

    let result = await run([], backend);
    expect(result.out[0]).toBe('pending 1 · sent 0 · failed 0');
    expect(result.out[2]).toMatch(/^1 +pending +0 +welcome +nina@x\.example/);

    result = await run(['retry'], backend);
    expect(result).toMatchObject({
      code: 1,
      out: ['made due now: 1', 'delivered: 0; will retry later: 1; failed for good: 0'],
    });
    result = await run(['--state', 'pending', '--json'], backend);
    const view = JSON.parse(result.out[0]);
    expect(view.messages).toEqual([
      expect.objectContaining({
        id: 1,
        state: 'pending',
        attempts: 1,
        lastError: expect.stringMatching(/ECONNREFUSED/),
      }),
    ]);
    expect(view.messages[0].payload).toBeUndefined();

    await smtp.restart();
    result = await run(['retry', '1'], backend);
    expect(result).toMatchObject({
      code: 0,
      out: ['made due now: 1', 'delivered: 1; will retry later: 0; failed for good: 0'],
    });
    expect(smtp.received.map((m) => m.to)).toEqual([['nina@x.example']]);
    result = await run([], backend);
    expect(result.out[0]).toBe('pending 0 · sent 1 · failed 0');
    expect(result.out[2]).toMatch(/^1 +sent +2 +welcome/);
  });

  it('asks a running internal API, which delivers with its own dispatcher', async () => {
    await smtp.stop();
    const running = await startInternalApi({
      store,
      port: 0,
      env: { MAIL_TRANSPORT: 'smtp', SMTP_URL: smtp.url },
      log: () => {},
      outboxPollMs: 600_000,
    });
    try {
      await createUser('ola');
      const backend = httpOutboxBackend(running.url, DEV_INTERNAL_API_TOKEN);
      expect((await run([], backend)).out[0]).toBe('pending 1 · sent 0 · failed 0');
      await smtp.restart();
      const result = await run(['retry', '--json'], backend);
      expect(result.code).toBe(0);
      expect(JSON.parse(result.out[0])).toEqual({ retried: 1, dispatched: { sent: 1, deferred: 0, failed: 0 } });
      expect((await run(['--state', 'sent'], backend)).out[2]).toMatch(/ola@x\.example/);
      await expect(run([], httpOutboxBackend(running.url, 'wrong-token-wrong-token'))).rejects.toThrow(/401/);
    } finally {
      await running.close();
    }
  });

  it('refuses bad usage with exit code 2', async () => {
    const backend = storeOutboxBackend(store, createSmtpMailer({ url: smtp.url }), 'x@y.example');
    expect((await run(['--state', 'lost'], backend)).code).toBe(2);
    expect((await run(['retry', 'abc'], backend)).code).toBe(2);
    expect((await run(['purge'], backend)).code).toBe(2);
  });
});
