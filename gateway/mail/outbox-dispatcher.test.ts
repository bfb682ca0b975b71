import { describe, it, expect, beforeEach, afterEach } from 'vitest';
import type { Store } from '../store/store';
import { createTestStore } from '../testing/test-store';
import { createSmtpMailer } from './smtp-mailer';
import { startLoopbackSmtpServer, type LoopbackSmtpServer } from '../testing/loopback-smtp-server';
import { claimDueMail, enqueueMail, listMail, retryMailNow, countMailByState } from './outbox';
import { createOutboxDispatcher, nextAttemptAt, DEFAULT_BACKOFF, type MailComposer } from './outbox-dispatcher';
import { countingStore } from '../testing/counting-store';
import type { Mailer } from './mailer';

const START = Date.parse('2026-03-01T09:00:00Z');
let store: Store;
let smtp: LoopbackSmtpServer;
let time: number;
const clock = () => time;
const logs: string[] = [];
// A composer of our own: renders the payload and, once sent, records that it was.
const delivered: number[] = [];
const composers: Record<string, MailComposer> = {
  note: async (entry) => ({
    text: `Note: ${String(entry.payload.body)}`,
    onSent: async () => void delivered.push(entry.id),
  }),
};

beforeEach(async () => {
  time = START;
  logs.length = 0;
  delivered.length = 0;
  store = await createTestStore();
  smtp = await startLoopbackSmtpServer();
});
afterEach(async () => {
  await smtp.stop();
  await store.close();
});

function dispatcher(backoff = DEFAULT_BACKOFF, on: Store = store) {
  const mailer = createSmtpMailer({ url: smtp.url, timeoutMs: 2_000 });
  return createOutboxDispatcher({
    store: on,
    mailer,
    clock,
    from: 'no-reply@gateway.test',
    composers,
    backoff,
    log: (l) => logs.push(l),
  });
}

const note = (body: string) =>
  enqueueMail(
    store,
    { kind: 'note', recipient: 'ann@example.com', subject: 'A note', payload: { body } },
    new Date(time),
  );

describe('outbox dispatcher', () => {
  it('delivers a pending message over SMTP and marks it sent', async () => {
    const id = await note('hello');
    expect(await dispatcher().runOnce()).toEqual({ sent: 1, deferred: 0, failed: 0 });
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0].to).toEqual(['ann@example.com']);
    expect(smtp.received[0].raw).toContain('Note: hello');
    expect(delivered).toEqual([id]);
    const [entry] = await listMail(store);
    expect(entry).toMatchObject({ id, state: 'sent', attempts: 1, lastError: null, sentAt: new Date(START) });
    // Sent once, never again.
    expect(await dispatcher().runOnce()).toEqual({ sent: 0, deferred: 0, failed: 0 });
    expect(smtp.received).toHaveLength(1);
  });

  it('keeps the message pending while the mail server is down, and delivers it when it is back', async () => {
    await smtp.stop();
    const id = await note('wait for me');
    const d = dispatcher();
    expect(await d.runOnce()).toEqual({ sent: 0, deferred: 1, failed: 0 });
    let [entry] = await listMail(store);
    expect(entry).toMatchObject({ id, state: 'pending', attempts: 1, nextAttemptAt: new Date(START + 30_000) });
    expect(entry.lastError).toMatch(/ECONNREFUSED/);
    expect(logs.join('\n')).toMatch(/message \d+ \(note\) attempt 1 failed/);
    expect(delivered).toEqual([]);

    await smtp.restart();
    // Not due yet: the backoff holds it back even though the server is up.
    expect(await d.runOnce()).toEqual({ sent: 0, deferred: 0, failed: 0 });
    time += 30_000;
    expect(await d.runOnce()).toEqual({ sent: 1, deferred: 0, failed: 0 });
    [entry] = await listMail(store);
    expect(entry).toMatchObject({ state: 'sent', attempts: 2, lastError: null });
    expect(smtp.received.map((m) => m.raw.includes('wait for me'))).toEqual([true]);
  });

  it('marks a message failed after its last attempt, and an operator retry delivers it', async () => {
    await smtp.stop();
    await note('persistent');
    const d = dispatcher({ baseMs: 1_000, maxMs: 4_000, maxAttempts: 3 });
    const outcomes = [];
    for (let i = 0; i < 3; i++) {
      outcomes.push(await d.runOnce());
      time += 10_000;
    }
    expect(outcomes).toEqual([
      { sent: 0, deferred: 1, failed: 0 },
      { sent: 0, deferred: 1, failed: 0 },
      { sent: 0, deferred: 0, failed: 1 },
    ]);
    expect(await countMailByState(store)).toEqual({ pending: 0, sent: 0, failed: 1 });
    expect(await d.runOnce()).toEqual({ sent: 0, deferred: 0, failed: 0 });

    await smtp.restart();
    expect(await retryMailNow(store, 'all', new Date(time))).toBe(1);
    expect(await d.runOnce()).toEqual({ sent: 1, deferred: 0, failed: 0 });
    expect(await countMailByState(store)).toEqual({ pending: 0, sent: 1, failed: 0 });
  });

  it('retries only the messages named, and never a sent one', async () => {
    const a = await note('a');
    await dispatcher().runOnce();
    await smtp.stop();
    const b = await note('b');
    const c = await note('c');
    await dispatcher().runOnce();
    expect(await retryMailNow(store, [a, b], new Date(time))).toBe(1);
    const byId = new Map((await listMail(store)).map((e) => [e.id, e]));
    expect(byId.get(a)?.state).toBe('sent');
    expect(byId.get(b)?.nextAttemptAt).toEqual(new Date(time));
    expect(byId.get(c)?.nextAttemptAt).toEqual(new Date(time + 30_000));
  });

  it('fails a message of a kind nobody can render at once, without retrying it', async () => {
    await enqueueMail(store, { kind: 'mystery', recipient: 'ann@example.com', subject: '?' }, new Date(time));
    expect(await dispatcher().runOnce()).toEqual({ sent: 0, deferred: 0, failed: 1 });
    expect((await listMail(store))[0]).toMatchObject({
      state: 'failed',
      lastError: "no composer for mail kind 'mystery'",
    });
  });

  it('leases a claimed message so a second dispatcher skips it until the lease ends', async () => {
    await note('once');
    const now = new Date(time);
    expect(await claimDueMail(store, now, 60_000, 10)).toHaveLength(1);
    expect(await claimDueMail(store, now, 60_000, 10)).toHaveLength(0);
    // The first dispatcher died mid-send: after the lease the message is taken over.
    const later = await claimDueMail(store, new Date(time + 60_000), 60_000, 10);
    expect(later.map((e) => e.attempts)).toEqual([2]);
  });

  it('backs off exponentially up to the cap, then gives up', () => {
    const now = new Date(START);
    const delays = [1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => nextAttemptAt(now, n, DEFAULT_BACKOFF)!.getTime() - START);
    expect(delays).toEqual([30_000, 60_000, 120_000, 240_000, 480_000, 960_000, 1_920_000, 3_600_000, 3_600_000]);
    expect(nextAttemptAt(now, 10, DEFAULT_BACKOFF)).toBeNull();
  });

  it('deliverDueNow: a message made due while a pass is sending goes in another pass, counted with the one in flight (runOnce shares that one only)', async () => {
    await note('first');
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const sent: string[] = [];
    const mailer: Mailer = {
      description: 'held',
      close: () => {},
      send: async (message) => {
        sent.push(message.text);
        if (sent.length === 1) await held;
        return { messageId: String(sent.length) };
      },
    };
    const d = createOutboxDispatcher({
      store,
      mailer,
      clock,
      from: 'no-reply@gateway.test',
      composers,
      log: (l) => logs.push(l),
    });
    const inFlight = d.runOnce();
    await expect.poll(() => sent.length, { interval: 5 }).toBe(1);
    await note('second');
    const shared = d.runOnce();
    const fresh = d.deliverDueNow();
    release();
    expect(await shared).toEqual({ sent: 1, deferred: 0, failed: 0 });
    expect(await inFlight).toEqual({ sent: 1, deferred: 0, failed: 0 });
    expect(await fresh).toEqual({ sent: 2, deferred: 0, failed: 0 });
    expect(sent).toEqual(['Note: first', 'Note: second']);
  });

  it('started, delivers a message soon after being woken', async () => {
    const counted = countingStore(store);
    const d = dispatcher(DEFAULT_BACKOFF, counted);
    d.start(60_000);
    try {
      // The pass start() begins at once is over before the message exists: only wake() can send it.
      await expect
        .poll(() => counted.statements.some((sql) => sql.includes('UPDATE mail_outbox SET attempts')), { interval: 5 })
        .toBe(true);
      await d.runOnce(); // the pass in flight, if it still is
      await note('woken');
      d.wake();
      await expect.poll(() => smtp.received.length, { interval: 10, timeout: 5_000 }).toBeGreaterThan(0);
      expect(smtp.received).toHaveLength(1);
    } finally {
      await d.stop();
    }
  });
});
