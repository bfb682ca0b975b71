import { describe, it, expect, beforeEach, afterEach } from 'vitest';
import type { Store } from '../store/store';
import { createTestStore } from '../testing/test-store';
import { createLocalAddressValidator } from '../address/local-address-validator';
import { createSmtpMailer } from '../mail/smtp-mailer';
import { createOutboxDispatcher } from '../mail/outbox-dispatcher';
import { countingStore } from '../testing/counting-store';
import { listMail } from '../mail/outbox';
import { startLoopbackSmtpServer, type LoopbackSmtpServer } from '../testing/loopback-smtp-server';
import { createInternalApi } from './internal-api';
import { userMailComposers, WELCOME_SUBJECT } from './welcome-email';
import { verifyPassword } from './password-hash';
import { validCreateUserRequest } from '../testing/create-user-request';

// The welcome mail end to end: created through the API, delivered by the dispatcher to a
// real SMTP server on loopback, asserted as received.

const TOKEN = 'welcome-test-internal-token';
let store: Store;
let smtp: LoopbackSmtpServer;
let time: number;
const logs: string[] = [];

beforeEach(async () => {
  time = Date.parse('2026-03-03T08:00:00Z');
  logs.length = 0;
  store = await createTestStore();
  smtp = await startLoopbackSmtpServer();
});
afterEach(async () => {
  await smtp.stop();
  await store.close();
});

function setup() {
  const log = (line: string) => logs.push(line);
  // The dispatcher's statements are counted: a test can see that a pass has begun.
  const dispatcherStore = countingStore(store);
  const dispatcher = createOutboxDispatcher({
    store: dispatcherStore,
    clock: () => time,
    from: 'Gateway <no-reply@gateway.test>',
    composers: userMailComposers,
    log,
    mailer: createSmtpMailer({ url: smtp.url, timeoutMs: 2_000 }),
  });
  const app = createInternalApi({
    store,
    addressValidator: createLocalAddressValidator(),
    config: { token: TOKEN },
    clock: () => time,
    dispatcher,
    log,
  });
  const create = () =>
    app.request('/internal/users/create', {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(validCreateUserRequest()),
    });
  return { dispatcher, dispatcherStore, create };
}

const passwordHash = async () =>
  (await store.query<{ password_hash: string | null }>('SELECT password_hash FROM users WHERE username = $1', ['nina']))
    .rows[0].password_hash;
const passwordIn = (raw: string) => /Temporary password: +(\S+)/.exec(raw)?.[1];

describe('welcome e-mail', () => {
  it('is delivered over SMTP with the username and a temporary password whose only stored form is its hash', async () => {
    const { dispatcher, create } = setup();
    expect((await create()).status).toBe(200);
    expect(await dispatcher.runOnce()).toEqual({ sent: 1, deferred: 0, failed: 0 });

    expect(smtp.received).toHaveLength(1);
    const [mail] = smtp.received;
    expect(mail.to).toEqual(['nina@new-garage.example']);
    expect(mail.from).toBe('no-reply@gateway.test');
    expect(mail.raw).toMatch(new RegExp(`^Subject: ${WELCOME_SUBJECT}\\r$`, 'm'));
    expect(mail.raw).toMatch(/^To: nina@new-garage.example\r$/m);
    expect(mail.raw).toContain('Hello Nina,');
    expect(mail.raw).toMatch(/Username: +nina\r$/m);

    const password = passwordIn(mail.raw);
    expect(password).toMatch(/^[A-Za-z0-9]{16}$/);
    const hash = await passwordHash();
    expect(hash).toMatch(/^scrypt\$/);
    expect(await verifyPassword(password!, hash!)).toBe(true);
    // The mail carries the password, never its hash; no log line carries either.
    expect(mail.raw).not.toContain(hash!.split('$')[3]);
    expect(mail.raw).not.toContain('scrypt');
    expect(logs.join('\n')).not.toContain(password!);
    // Nor does the database hold the password anywhere in the clear.
    const { rows } = await store.query<{ dump: string }>('SELECT row_to_json(m)::text AS dump FROM mail_outbox m');
    expect(rows[0].dump).not.toContain(password!);
    expect((await listMail(store))[0]).toMatchObject({ state: 'sent', attempts: 1 });
  });

  it('waits in the outbox while the mail server is down, and is delivered when it is back', async () => {
    const { dispatcher, create } = setup();
    await smtp.stop();
    // The user is created regardless of the mail server.
    expect((await create()).status).toBe(200);
    expect(await dispatcher.runOnce()).toEqual({ sent: 0, deferred: 1, failed: 0 });
    let [entry] = await listMail(store);
    expect(entry).toMatchObject({ kind: 'welcome', state: 'pending', attempts: 1 });
    expect(entry.lastError).toMatch(/ECONNREFUSED/);
    // No mail left, so no password is valid yet.
    expect(await passwordHash()).toBeNull();
    expect(logs.some((l) => /message \d+ \(welcome\) attempt 1 failed/.test(l))).toBe(true);

    await smtp.restart();
    time += 30_000;
    expect(await dispatcher.runOnce()).toEqual({ sent: 1, deferred: 0, failed: 0 });
    [entry] = await listMail(store);
    expect(entry).toMatchObject({ state: 'sent', attempts: 2, lastError: null });
    expect(smtp.received).toHaveLength(1);
    const password = passwordIn(smtp.received[0].raw)!;
    expect(await verifyPassword(password, (await passwordHash())!)).toBe(true);
    for (const line of logs) expect(line).not.toContain(password);
  });

  it('leaves a running dispatcher woken by the creation to send it without waiting for a poll', async () => {
    const { dispatcher, dispatcherStore, create } = setup();
    dispatcher.start(60_000);
    try {
      // The pass start() begins at once is over before the user exists: only the creation's wake can send the mail.
      await expect
        .poll(() => dispatcherStore.statements.some((sql) => sql.includes('UPDATE mail_outbox SET attempts')), {
          interval: 5,
        })
        .toBe(true);
      await dispatcher.runOnce(); // the pass in flight, if it still is
      expect((await create()).status).toBe(200);
      await expect.poll(() => smtp.received.length, { interval: 10, timeout: 5_000 }).toBeGreaterThan(0);
      expect(smtp.received.map((m) => m.to)).toEqual([['nina@new-garage.example']]);
    } finally {
      await dispatcher.stop();
    }
  });
});
