import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { checkItemInquiryReply, checkPlaceOrderReply } from './index';
import { checkSellerReply } from '../reply-check';
import { validators } from '../validator';
import {
  ITEM_INQUIRY_MUTATIONS,
  PLACE_ORDER_MUTATIONS,
  itemInquiryExchange,
  placeOrderExchange,
} from '../testing/arbitraries';

const ruleNames = (check: { violations: { rule: string }[] }) => new Set(check.violations.map((v) => v.rule));

describe('item inquiry: generated exchanges', () => {
  it('a valid request and reply pass the schemas and break no rule', () => {
    fc.assert(
      fc.property(itemInquiryExchange(), ({ request, reply }) => {
        expect(validators['item-inquiry']['seller-request'](request).errors).toEqual([]);
        // Through JSON, as the gateway receives it.
        const result = checkSellerReply('item-inquiry', request, JSON.parse(JSON.stringify(reply)));
        expect(result).toEqual({ ok: true, errors: [], violations: [], notes: [] });
      }),
      { numRuns: 100 },
    );
  });

  it('the generator covers alternates, superseded and equivalent parts and several locations', () => {
    const seen = new Set<number>();
    let maxLocations = 0;
    for (const { request, reply } of fc.sample(itemInquiryExchange(), { numRuns: 200, seed: 42 })) {
      for (const e of reply.items) seen.add(e.status_code);
      maxLocations = Math.max(maxLocations, request.locations.length);
    }
    expect([...seen].sort()).toEqual([0, 1, 2, 3, 4]);
    expect(maxLocations).toBeGreaterThanOrEqual(4);
  });

  it.each(ITEM_INQUIRY_MUTATIONS.map((m) => [m.name, m] as const))(
    'one mutation, exactly its rules: %s',
    (_name, mutation) => {
      fc.assert(
        fc.property(itemInquiryExchange(), fc.nat(), (exchange, pick) => {
          fc.pre(mutation.applies(exchange));
          const expected = mutation.apply(exchange, pick);
          expect(
            validators['item-inquiry']['seller-reply'].is(exchange.reply) || expected.includes('item.status-code'),
          ).toBe(true);
          expect(ruleNames(checkItemInquiryReply(exchange.request, exchange.reply))).toEqual(new Set(expected));
        }),
        { numRuns: 100 },
      );
    },
  );
});

describe('place order: generated exchanges', () => {
  it('a valid order and result pass the schemas and break no rule', () => {
    fc.assert(
      fc.property(placeOrderExchange(), ({ request, reply }) => {
        expect(validators['place-order']['seller-request'](request).errors).toEqual([]);
        expect(checkSellerReply('place-order', request, JSON.parse(JSON.stringify(reply)))).toEqual({
          ok: true,
          errors: [],
          violations: [],
          notes: [],
        });
      }),
      { numRuns: 100 },
    );
  });

  it.each(PLACE_ORDER_MUTATIONS.map((m) => [m.name, m] as const))(
    'one mutation, exactly its rules: %s',
    (_name, mutation) => {
      fc.assert(
        fc.property(placeOrderExchange(), fc.nat(), (exchange, pick) => {
          fc.pre(mutation.applies(exchange));
          const expected = mutation.apply(exchange, pick);
          expect(ruleNames(checkPlaceOrderReply(exchange.request, exchange.reply))).toEqual(new Set(expected));
        }),
        { numRuns: 100 },
      );
    },
  );
});
