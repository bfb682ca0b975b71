import { describe, it, expect } from 'vitest';
import { checkSellerReply, type ItemInquirySellerReply, type ItemInquirySellerRequest } from '../contracts/index';
import { createMockSeller } from './index';
import { readDefaultScenario } from './default-scenario';

const L101 = { id: 'L101', member: 'M100', account: 'A-1001' };
const L150 = { id: 'L150', member: 'M100', account: 'A-1001' };

async function inquire(request: Omit<ItemInquirySellerRequest, 'service'>) {
  const seller = createMockSeller(readDefaultScenario());
  const body: ItemInquirySellerRequest = { service: 'item_inquiry', ...request };
  const res = await seller.app.request('/seller', {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  });
  expect(res.status).toBe(200);
  const reply = (await res.json()) as ItemInquirySellerReply;
  return { reply, body, check: checkSellerReply('item-inquiry', body, reply) };
}

describe('item inquiry', () => {
  it('answers a stocked part with status 1 and the scenario data of each forwarded location', async () => {
    const { reply, check } = await inquire({
      locations: [L101, L150],
      items: [{ id: 'x1', mfr_code: 'GAT', part_number: 'K060882' }],
    });
    expect(check).toMatchObject({ ok: true, errors: [], violations: [] });
    const own = reply.items.filter((e) => e.status_code === 1);
    expect(own).toHaveLength(1);
    expect(own[0]).toMatchObject({
      id: 'x1',
      mfr_code: 'GAT',
      part_number: 'K060882',
      part_description: 'Serpentine belt, Micro-V',
      mfr_description: 'Gates',
    });
    expect(own[0].locations.map((l) => [l.id, l.type, l.quantity_available])).toEqual([
      ['L101', 1, 2],
      ['L150', 2, 35],
    ]);
    const l101 = own[0].locations[0];
    expect(l101).toMatchObject({ cost: 26.65, list: 42.99, pack_code: 'EA', pack_quantity: 1 });
    expect(l101.route_times?.map((r) => r.route_code)).toEqual(['N-AM', 'N-PM']);
  });

  it('returns only the forwarded locations', async () => {
    const { reply } = await inquire({
      locations: [{ id: 'L201', member: 'M200', account: 'A-2001' }],
      items: [{ id: 'x', mfr_code: 'WIX', part_number: '51515' }],
    });
    expect(reply.items[0].locations.map((l) => l.id)).toEqual(['L201']);
    for (const entry of reply.items) expect(entry.locations.every((l) => l.id === 'L201')).toBe(true);
  });

  it('answers an unknown part with status 0 under the requested id and no locations', async () => {
    const { reply, check } = await inquire({
      locations: [L101],
      items: [{ id: 'nope', mfr_code: 'WIX', part_number: 'NOT-A-PART' }],
    });
    expect(check.ok).toBe(true);
    expect(reply.items).toEqual([
      {
        id: 'nope',
        mfr_code: 'WIX',
        part_number: 'NOT-A-PART',
        comment: 'Part not found',
        status_code: 0,
        locations: [],
      },
    ]);
  });

  it('adds alternate, superseded and equivalent parts under the same id with original_part and original_mfr', async () => {
    const { reply, check } = await inquire({
      locations: [L101, L150],
      items: [
        { id: 'oil', mfr_code: 'WIX', part_number: '51515' },
        { id: 'plug', mfr_code: 'BOS', part_number: '0242236562' },
      ],
    });
    expect(check.ok).toBe(true);
    const summary = reply.items.map((e) => [
      e.id,
      e.status_code,
      e.mfr_code,
      e.part_number,
      e.original_mfr,
      e.original_part,
    ]);
    expect(summary).toEqual([
      ['oil', 1, 'WIX', '51515', undefined, undefined],
      ['oil', 2, 'WIX', '51515XP', 'WIX', '51515'],
      ['oil', 4, 'MOT', 'FL400S', 'WIX', '51515'],
      ['plug', 1, 'BOS', '0242236562', undefined, undefined],
      ['plug', 3, 'BOS', '9652', 'BOS', '0242236562'],
    ]);
  });

  it('reports core and bundle cost where the scenario has them', async () => {
    const { reply } = await inquire({
      locations: [L150],
      items: [
        { id: 'alt', mfr_code: 'BOS', part_number: 'AL8792X' },
        { id: 'ngk', mfr_code: 'NGK', part_number: 'BKR5E-11' },
      ],
    });
    expect(reply.items[0].locations[0]).toMatchObject({ id: 'L150', core: 45 });
    expect(reply.items[1].locations[0]).toMatchObject({
      pack_code: 'BX',
      pack_quantity: 4,
      bundle_cost: expect.any(Number),
    });
  });

  it('gives a forwarded location the scenario does not know no data rather than inventing some', async () => {
    const { reply, check } = await inquire({
      locations: [{ id: 'L999', member: 'M100', account: 'A-1001' }],
      items: [{ id: 'x', mfr_code: 'WIX', part_number: '51515' }],
    });
    expect(check.ok).toBe(true);
    expect(reply.items.every((e) => e.locations.length === 0)).toBe(true);
  });

  it('answers a repeated inquiry from the current stock, after orders and after reset', async () => {
    const seller = createMockSeller(readDefaultScenario());
    const body = JSON.stringify({
      service: 'item_inquiry',
      locations: [L101],
      items: [{ id: 'x', mfr_code: 'WIX', part_number: '51515' }],
    });
    const ask = async () =>
      ((await (await seller.app.request('/seller', { method: 'POST', body })).json()) as ItemInquirySellerReply)
        .items[0].locations[0].quantity_available;
    expect(await ask()).toBe(24);
    expect(await ask()).toBe(24);
    const order = {
      service: 'place_order',
      purchase_order_number: 'P',
      order_type: 1,
      items: [
        {
          id: 'o',
          mfr_code: 'WIX',
          part_number: '51515',
          location_id: 'L101',
          quantity_ordered: 4,
          account_id: 'A-1001',
          member_id: 'M100',
        },
      ],
    };
    await seller.app.request('/seller', { method: 'POST', body: JSON.stringify(order) });
    expect(await ask()).toBe(20);
    seller.reset();
    expect(await ask()).toBe(24);
    // Every request is journaled, answered from the cache or not.
    await ask();
    expect(
      seller.journal.entries().map((e) => [e.service, (e.request as { items: { id: string }[] }).items[0].id]),
    ).toEqual([
      ['item_inquiry', 'x'],
      ['item_inquiry', 'x'],
    ]);
  });
});
