import { describe, it, expect } from 'vitest';
import {
  checkSellerReply,
  type PlaceOrderSellerReply,
  type PlaceOrderSellerRequest,
  type SellerOrderItem,
} from '../contracts/index';
import { createMockSeller, type MockSeller } from './index';
import { readDefaultScenario } from './default-scenario';
import { ORDER_TYPE_UNKNOWN_NOTE } from './place-order';

const line = (
  id: string,
  part_number: string,
  quantity_ordered: number,
  location_id = 'L101',
  mfr_code = 'WIX',
): SellerOrderItem => ({
  id,
  mfr_code,
  part_number,
  location_id,
  quantity_ordered,
  account_id: 'A-1001',
  member_id: 'M100',
});

async function order(seller: MockSeller, items: SellerOrderItem[], extra: Partial<PlaceOrderSellerRequest> = {}) {
  const body: PlaceOrderSellerRequest = {
    service: 'place_order',
    purchase_order_number: 'PO-1',
    order_type: 1,
    items,
    ...extra,
  };
  const res = await seller.app.request('/seller', { method: 'POST', body: JSON.stringify(body) });
  expect(res.status).toBe(200);
  const reply = (await res.json()) as PlaceOrderSellerReply;
  expect(checkSellerReply('place-order', body, reply)).toMatchObject({ ok: true });
  return reply;
}

const stockAt = (seller: MockSeller, mfr: string, pn: string, location: string) =>
  seller.data.findPart(mfr, pn)?.stock.get(location)?.quantity_available;

describe('place order', () => {
  it('receives an item while stock suffices and lowers the stock', async () => {
    const seller = createMockSeller(readDefaultScenario());
    const reply = await order(seller, [line('a', '51515', 10)]);
    expect(reply.items).toEqual([{ id: 'a', status_code: 1, quantity_ordered: 10, comment: 'Received at L101' }]);
    expect(stockAt(seller, 'WIX', '51515', 'L101')).toBe(14);
    const again = await order(seller, [line('b', '51515', 14)]);
    expect(again.items[0].status_code).toBe(1);
    expect(stockAt(seller, 'WIX', '51515', 'L101')).toBe(0);
  });

  it('backorders an item when the stock does not suffice, without lowering the stock', async () => {
    const seller = createMockSeller(readDefaultScenario());
    const reply = await order(seller, [line('a', 'K060882', 3, 'L101', 'GAT')]);
    expect(reply.items[0]).toMatchObject({ id: 'a', status_code: 2, quantity_ordered: 3 });
    expect(stockAt(seller, 'GAT', 'K060882', 'L101')).toBe(2);
  });

  it('fails an item for an unknown part or an unknown location', async () => {
    const seller = createMockSeller(readDefaultScenario());
    const reply = await order(seller, [line('p', 'NOT-A-PART', 1), line('l', '51515', 1, 'L999')]);
    expect(reply.items.map((i) => [i.id, i.status_code, i.comment])).toEqual([
      ['p', 0, 'Unknown part WIX NOT-A-PART'],
      ['l', 0, 'Unknown location L999'],
    ]);
  });

  it('gives every order a unique order number and keeps the orders until reset', async () => {
    const seller = createMockSeller(readDefaultScenario());
    const numbers = new Set<string>();
    for (let i = 0; i < 5; i++) numbers.add((await order(seller, [line('a', '51515', 1)])).order_number);
    expect(numbers.size).toBe(5);
    expect(seller.orders.map((o) => o.order_number)).toEqual([...numbers]);
    seller.reset();
    expect(seller.orders).toEqual([]);
    expect(numbers.has((await order(seller, [line('a', '51515', 1)])).order_number)).toBe(false);
  });

  it('restores the stock on reset', async () => {
    const seller = createMockSeller(readDefaultScenario());
    await order(seller, [line('a', '51515', 20)]);
    expect(stockAt(seller, 'WIX', '51515', 'L101')).toBe(4);
    const res = await seller.app.request('/__admin/reset', { method: 'POST' });
    expect(res.status).toBe(200);
    expect(stockAt(seller, 'WIX', '51515', 'L101')).toBe(24);
  });

  it('adds a note to the comment for order type 0 and passes the buyer comment on otherwise', async () => {
    const seller = createMockSeller(readDefaultScenario());
    const unknown = await order(seller, [line('a', '51515', 1)], { order_type: 0, comment: 'leave at back door' });
    expect(unknown.comment).toBe(`leave at back door | ${ORDER_TYPE_UNKNOWN_NOTE}`);
    const bare = await order(seller, [line('a', '51515', 1)], { order_type: 0 });
    expect(bare.comment).toBe(ORDER_TYPE_UNKNOWN_NOTE);
    const delivery = await order(seller, [line('a', '51515', 1)], { order_type: 1, comment: 'leave at back door' });
    expect(delivery.comment).toBe('leave at back door');
  });
});
