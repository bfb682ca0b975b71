import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Store } from '../store/store';
import { createTestStore } from '../testing/test-store';
import { createLocalAddressValidator } from '../address/local-address-validator';
import { createInternalApi } from './internal-api';
import { validCreateUserRequest } from '../testing/create-user-request';
import type { OutboxView, RetryOutcome } from './outbox-routes';

const TOKEN = 'outbox-routes-test-token';
const NOW = Date.parse('2026-03-04T12:00:00Z');
let store: Store;
let app: ReturnType<typeof createInternalApi>;
beforeAll(async () => {
  store = await createTestStore();
  // No dispatcher: messages stay pending, retry only makes them due.
  app = createInternalApi({
    store,
    addressValidator: createLocalAddressValidator(),
    config: { token: TOKEN },
    clock: () => NOW,
    log: () => {},
  });
  const res = await app.request('/internal/users/create', {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(validCreateUserRequest()),
  });
  expect(res.status).toBe(200);
});
afterAll(() => store.close());

const call = (path: string, init: RequestInit = {}) =>
  app.request(`/internal/outbox${path}`, {
    ...init,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
  });

describe('outbox routes', () => {
  it('list the messages with their state and attempts, without their payload', async () => {
    const res = await call('?state=pending');
    expect(res.status).toBe(200);
    const view = (await res.json()) as OutboxView;
    expect(view.counts).toEqual({ pending: 1, sent: 0, failed: 0 });
    expect(view.messages).toEqual([
      {
        id: 1,
        kind: 'welcome',
        recipient: 'nina@new-garage.example',
        subject: expect.any(String),
        userId: expect.any(Number),
        state: 'pending',
        attempts: 0,
        lastError: null,
        nextAttemptAt: new Date(NOW).toISOString(),
        createdAt: new Date(NOW).toISOString(),
        sentAt: null,
      },
    ]);
    expect(((await (await call('?state=sent')).json()) as OutboxView).messages).toEqual([]);
  });

  it('retry makes messages due and says no dispatcher ran here', async () => {
    const res = await call('/retry', { method: 'POST', body: JSON.stringify({ ids: [1] }) });
    expect((await res.json()) as RetryOutcome).toEqual({ retried: 1, dispatched: null });
  });

  it('refuse a state that does not exist and ids that are not ids, and need the credential', async () => {
    expect((await call('?state=lost')).status).toBe(400);
    expect((await call('/retry', { method: 'POST', body: JSON.stringify({ ids: ['1'] }) })).status).toBe(400);
    // A body that is not JSON is refused, never read as "retry everything".
    const garbled = await call('/retry', { method: 'POST', body: '{"ids": [1' });
    expect(garbled.status).toBe(400);
    expect(((await garbled.json()) as { message: string }).message).toMatch(/^the body is not valid JSON: /);
    expect((await app.request('/internal/outbox')).status).toBe(401);
  });
});
