import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { checkSellerReply, type ItemInquirySellerRequest, type PlaceOrderSellerRequest } from '../contracts/index';
import { createMockSeller, FAULT_HEADER } from './index';
import { readDefaultScenario } from './default-scenario';

// The mock never breaks the contract unless told to, and each violation fault breaks
// the rule it is named for: property-based, against the default scenario.

const scenario = readDefaultScenario();
const seller = createMockSeller(scenario);
const accountOf: Record<string, string> = { M100: 'A-1001', M200: 'A-2001' };

const knownPart = fc.constantFrom(...scenario.parts.map((p) => ({ mfr_code: p.mfr_code, part_number: p.part_number })));
const unknownPart = fc.record({
  mfr_code: fc.constantFrom('WIX', 'ZZZ', 'BOS'),
  part_number: fc.stringMatching(/^UNK-[A-Z0-9]{1,8}$/),
});
const part = fc.oneof({ arbitrary: knownPart, weight: 4 }, { arbitrary: unknownPart, weight: 1 });
const forwardedLocations = fc
  .subarray(scenario.locations, { minLength: 1 })
  .map((ls) => ls.map((l) => ({ id: l.id, member: l.member, account: accountOf[l.member] })));
const ids = (min: number, max: number) =>
  fc.uniqueArray(fc.stringMatching(/^[a-z0-9-]{1,12}$/), { minLength: min, maxLength: max });

const itemInquiry: fc.Arbitrary<ItemInquirySellerRequest> = fc
  .tuple(ids(1, 6), fc.array(part, { minLength: 6, maxLength: 6 }), forwardedLocations)
  .map(([itemIds, parts, locations]) => ({
    service: 'item_inquiry',
    locations,
    items: itemIds.map((id, i) => ({ id, ...parts[i] })),
  }));

const locationId = fc.oneof(
  { arbitrary: fc.constantFrom(...scenario.locations.map((l) => l.id)), weight: 5 },
  { arbitrary: fc.constant('L999'), weight: 1 },
);
const placeOrder: fc.Arbitrary<PlaceOrderSellerRequest> = fc
  .tuple(
    ids(1, 5),
    fc.array(fc.tuple(part, locationId, fc.integer({ min: 1, max: 300 })), { minLength: 5, maxLength: 5 }),
    fc.constantFrom(0, 1, 2, 3, 4),
  )
  .map(([itemIds, lines, order_type]) => ({
    service: 'place_order',
    purchase_order_number: 'PO-PROP',
    order_type,
    items: itemIds.map((id, i) => ({
      id,
      ...lines[i][0],
      location_id: lines[i][1],
      quantity_ordered: lines[i][2],
      account_id: 'A-1001',
      member_id: 'M100',
    })),
  }));

async function send(body: object, fault?: string): Promise<unknown> {
  const res = await seller.app.request('/seller', {
    method: 'POST',
    body: JSON.stringify(body),
    headers: fault === undefined ? {} : { [FAULT_HEADER]: fault },
  });
  expect(res.status).toBe(200);
  return res.json();
}

describe('the mock seller keeps the contract', () => {
  it('answers every generated item inquiry within every reply rule', async () => {
    await fc.assert(
      fc.asyncProperty(itemInquiry, async (request) => {
        const check = checkSellerReply('item-inquiry', request, await send(request));
        expect(check.errors).toEqual([]);
        expect(check.violations).toEqual([]);
      }),
      { numRuns: 150 },
    );
  });

  it('answers every generated order within every reply rule', async () => {
    seller.reset();
    await fc.assert(
      fc.asyncProperty(placeOrder, async (request) => {
        const check = checkSellerReply('place-order', request, await send(request));
        expect(check.errors).toEqual([]);
        expect(check.violations).toEqual([]);
      }),
      { numRuns: 150 },
    );
    seller.reset();
  });
});

const ITEM_VIOLATIONS = {
  'drop-id': 'item.id-echo',
  'change-id': 'item.unknown-id',
  'add-unknown-id': 'item.unknown-id',
  'wrong-original-part': 'alternate.original-part',
  'wrong-original-mfr': 'alternate.original-mfr',
  'extra-location': 'location.not-forwarded',
} as const;

const ORDER_VIOLATIONS = {
  'drop-id': 'order.id-echo',
  'change-id': 'order.unknown-id',
  'add-unknown-id': 'order.unknown-id',
} as const;

describe('each violation fault breaks the rule it is named for', () => {
  it.each(Object.entries(ITEM_VIOLATIONS))('item inquiry: %s breaks %s', async (kind, rule) => {
    await fc.assert(
      fc.asyncProperty(itemInquiry, fc.nat(), async (request, pick) => {
        const id = request.items[pick % request.items.length].id;
        const check = checkSellerReply('item-inquiry', request, await send(request, `${kind};id=${id}`));
        expect(check.errors).toEqual([]);
        expect(check.violations.map((v) => v.rule)).toContain(rule);
      }),
      { numRuns: 40 },
    );
  });

  it.each(Object.entries(ORDER_VIOLATIONS))('place order: %s breaks %s', async (kind, rule) => {
    await fc.assert(
      fc.asyncProperty(placeOrder, fc.nat(), async (request, pick) => {
        const id = request.items[pick % request.items.length].id;
        const check = checkSellerReply('place-order', request, await send(request, `${kind};id=${id}`));
        expect(check.violations.map((v) => v.rule)).toContain(rule);
      }),
      { numRuns: 40 },
    );
    seller.reset();
  });

  it('missing-field breaks the schema at the named field', async () => {
    await fc.assert(
      fc.asyncProperty(itemInquiry, placeOrder, async (inquiry, order) => {
        const a = checkSellerReply('item-inquiry', inquiry, await send(inquiry, 'missing-field'));
        expect(a.errors).toContainEqual(expect.objectContaining({ keyword: 'required', path: '/items/0/status_code' }));
        const b = checkSellerReply('place-order', order, await send(order, 'missing-field;field=/order_number'));
        expect(b.errors).toContainEqual(expect.objectContaining({ keyword: 'required', path: '/order_number' }));
      }),
      { numRuns: 40 },
    );
    seller.reset();
  });
});

describe('the fast item inquiry serialiser', () => {
  it('writes exactly what JSON.stringify writes of the reply object, also after stock changes', async () => {
    const { answerItemInquiry, itemInquiryBody } = await import('./item-inquiry');
    const fresh = createMockSeller(readDefaultScenario());
    // Replies share slabs: one handed out earlier (kept by the journal or the reply cache) must never change.
    const handedOut: [Buffer, string][] = [];
    await fc.assert(
      fc.asyncProperty(itemInquiry, placeOrder, async (request, order) => {
        const before = itemInquiryBody(fresh.data, request);
        expect(before.toString('utf8')).toBe(JSON.stringify(answerItemInquiry(fresh.data, request)));
        handedOut.push([before, before.toString('utf8')]);
        await fresh.app.request('/seller', { method: 'POST', body: JSON.stringify(order) });
        expect(itemInquiryBody(fresh.data, request).toString('utf8')).toBe(
          JSON.stringify(answerItemInquiry(fresh.data, request)),
        );
      }),
      { numRuns: 150 },
    );
    for (const [bytes, text] of handedOut) expect(bytes.toString('utf8')).toBe(text);
  });
});
