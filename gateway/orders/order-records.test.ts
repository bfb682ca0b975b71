import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestStore } from '../testing/test-store';
import type { Store } from '../store/store';
import { orderRecords, type NewOrder } from './order-records';
import { firstDifference } from './order-difference';

// The conditional UPDATEs that make a stale order's takeover a claim: whatever interleaving
// the HTTP tests happen to get, only one attempt may take it over, and the attempt it
// replaced may no longer send it.

let store: Store;
let userId: number;
beforeAll(async () => {
  store = await createTestStore();
  userId = Number((await store.query<{ id: number }>(`SELECT id FROM users WHERE username = 'demo'`)).rows[0].id);
});
afterAll(() => store.close());

const T0 = new Date('2026-01-01T10:00:00Z');
const later = (ms: number) => new Date(T0.getTime() + ms);
let po = 0;
const newOrder = (): NewOrder => ({
  userId,
  username: 'demo',
  purchaseOrderNumber: `PO-REC-${++po}`,
  idempotencyKey: null,
  memberId: 'M100',
  requestId: 'first',
  buyerRequest: { purchase_order_number: `PO-REC-${po}`, order_type: 1, items: [{ id: '1', quantity_ordered: 2 }] },
  forwardedRequest: { n: po },
  at: T0,
});
const takeover = (requestId: string, staleBefore: Date) => ({
  requestId,
  buyerRequest: { retry: requestId },
  forwardedRequest: { retry: requestId },
  idempotencyKey: null,
  memberId: 'M100',
  staleBefore,
  at: later(60_000),
});

describe('order records: stale claims', () => {
  it('lets exactly one of several concurrent takeovers claim a stale received order', async () => {
    const records = orderRecords(store);
    const first = (await records.claim(newOrder()))!;
    const taken = await Promise.all(
      ['r1', 'r2', 'r3', 'r4'].map((id) => records.takeOverStaleReceived(first.id, takeover(id, later(30_000)))),
    );
    const winners = taken.filter((t) => t !== undefined);
    expect(winners).toHaveLength(1);
    expect(winners[0]).toMatchObject({ status: 'received', attempts: 2 });
  });

  it('does not take over a received order touched since the staleness bound', async () => {
    const records = orderRecords(store);
    const first = (await records.claim(newOrder()))!;
    expect(await records.takeOverStaleReceived(first.id, takeover('r1', T0))).toBeUndefined();
  });

  it('stops the replaced attempt from forwarding; the attempt that took over may', async () => {
    const records = orderRecords(store);
    const first = (await records.claim(newOrder()))!;
    const retry = (await records.takeOverStaleReceived(first.id, takeover('r1', later(30_000))))!;
    expect(await records.markForwarded(first.id, first.attempts, later(61_000))).toBe(false);
    expect(await records.markForwarded(retry.id, retry.attempts, later(61_000))).toBe(true);
    expect((await records.find(first.id))?.status).toBe('forwarded');
  });

  it('marks a stale forwarded order unknown once, and never one that is not stale', async () => {
    const records = orderRecords(store);
    const first = (await records.claim(newOrder()))!;
    expect(await records.markForwarded(first.id, first.attempts, T0)).toBe(true);
    const outcome = (staleBefore: Date) => ({
      answer: { http_status: 504, body: { status_code: 4408 } },
      error: 'lost',
      staleBefore,
      at: later(60_000),
    });
    expect(await records.markStaleForwardedUnknown(first.id, outcome(T0))).toBeUndefined();
    const marked = await Promise.all([
      records.markStaleForwardedUnknown(first.id, outcome(later(30_000))),
      records.markStaleForwardedUnknown(first.id, outcome(later(30_000))),
    ]);
    expect(marked.filter((m) => m !== undefined)).toMatchObject([{ status: 'unknown', answer: { http_status: 504 } }]);
  });
});

describe('order records: the buyer request a repeat is compared with', () => {
  it('keeps the parsed buyer request with the claim and reads it back equal, whatever the key order', async () => {
    const records = orderRecords(store);
    const order = newOrder();
    const first = (await records.claim(order))!;
    const read = (await records.find(first.id))!;
    expect(read.buyerRequest).toEqual(order.buyerRequest);
    const reordered = {
      items: [{ quantity_ordered: 2.0, id: '1' }],
      order_type: 1,
      purchase_order_number: order.purchaseOrderNumber,
    };
    expect(firstDifference(read.buyerRequest, reordered)).toBeUndefined();
    expect(firstDifference(read.buyerRequest, { ...reordered, items: [{ id: '1', quantity_ordered: 1 }] })).toBe(
      '/items/0/quantity_ordered',
    );
  });

  it('lets exactly one of several concurrent retries retake a failed order, with its own corrected request', async () => {
    const records = orderRecords(store);
    const first = (await records.claim(newOrder()))!;
    await records.finish(
      first.id,
      { status: 'failed', answer: { http_status: 502, body: { status_code: 5500 } } },
      later(1_000),
    );
    const retake = (n: number) => ({
      requestId: `r${n}`,
      buyerRequest: { corrected: n },
      forwardedRequest: { n },
      idempotencyKey: null,
      at: later(2_000),
    });
    const taken = await Promise.all([1, 2, 3].map((n) => records.retakeFailed(first.id, retake(n))));
    const winners = taken.filter((t) => t !== undefined);
    expect(winners).toHaveLength(1);
    expect(winners[0]).toMatchObject({ status: 'received', attempts: 2, answer: null });
    expect((await records.find(first.id))?.buyerRequest).toEqual(winners[0]!.buyerRequest);
    // Only a failed order may be retaken: the one now in flight may not.
    expect(await records.retakeFailed(first.id, retake(4))).toBeUndefined();
  });

  it('reads an order recorded before migration 007 with no buyer request', async () => {
    const records = orderRecords(store);
    const first = (await records.claim(newOrder()))!;
    await store.query('UPDATE orders SET buyer_request = NULL WHERE id = $1', [first.id]);
    expect((await records.find(first.id))?.buyerRequest).toBeNull();
  });
});
