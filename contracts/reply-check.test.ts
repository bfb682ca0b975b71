import { describe, it, expect } from 'vitest';
import { checkSellerReply } from './reply-check';
import { loadFixture } from './payload-examples';
import { buildItemInquiryExchange } from './testing/large-exchange';

describe('checkSellerReply: schema, then rules', () => {
  it.each(['item-inquiry', 'place-order', 'invoice', 'statement'] as const)(
    'passes the %s fixture pair',
    (operation) => {
      const result = checkSellerReply(
        operation,
        loadFixture(operation, 'seller-request'),
        loadFixture(operation, 'seller-reply'),
      );
      expect(result).toEqual({ ok: true, errors: [], violations: [], notes: [] });
    },
  );

  it('a reply of the wrong shape reports schema errors and runs no rule', () => {
    const reply = loadFixture('item-inquiry', 'seller-reply');
    delete reply.items[0].locations;
    reply.items[1].original_part = 'WRONG'; // would break a rule, but the shape is checked first
    const result = checkSellerReply('item-inquiry', loadFixture('item-inquiry', 'seller-request'), reply);
    expect(result.ok).toBe(false);
    expect(result.errors.map((e) => e.path)).toEqual(['/items/0/locations']);
    expect(result.violations).toEqual([]);
  });

  it('a well-shaped reply that breaks a rule is not ok, with the violation', () => {
    const reply = loadFixture('item-inquiry', 'seller-reply');
    reply.items[1].original_mfr = 'STP';
    const result = checkSellerReply('item-inquiry', loadFixture('item-inquiry', 'seller-request'), reply);
    expect(result.ok).toBe(false);
    expect(result.errors).toEqual([]);
    expect(result.violations.map((v) => [v.rule, v.path])).toEqual([
      ['alternate.original-mfr', '/items/1/original_mfr'],
    ]);
  });

  it('extra fields and a seller pack code are notes, and the reply is still ok', () => {
    const reply = loadFixture('item-inquiry', 'seller-reply');
    reply.items[0].warehouse_bin = 'B-12';
    reply.items[0].locations[0].pack_code = 'DZ';
    const result = checkSellerReply('item-inquiry', loadFixture('item-inquiry', 'seller-request'), reply);
    expect(result.ok).toBe(true);
    expect(result.notes.map((n) => n.path)).toEqual(['/items/0/warehouse_bin', '/items/0/locations/0/pack_code']);
  });

  it('a place-order reply is stored whole: a NUL or lone surrogate in a field the seller adds (value or name) is a shape error at its path', () => {
    const request = loadFixture('place-order', 'seller-request');
    const cases: [(reply: Record<string, any>) => void, string][] = [
      [(r) => (r.seller_note = 'ok\u0000'), '/seller_note'],
      [(r) => (r.items[0].bins = ['A', 'B\ud800']), '/items/0/bins/1'],
      [(r) => (r.extra = { 'a/b\u0000': 1 }), '/extra/a~1b\u0000'],
    ];
    for (const [spoil, path] of cases) {
      const reply = loadFixture('place-order', 'seller-reply');
      spoil(reply);
      const result = checkSellerReply('place-order', request, reply);
      expect(result.ok).toBe(false);
      expect(result.errors.map((e) => e.path)).toEqual([path]);
    }
    const fine = loadFixture('place-order', 'seller-reply');
    fine.seller_note = 'emoji \u{1F600} is a valid pair';
    expect(checkSellerReply('place-order', request, fine).ok).toBe(true);
    // Item inquiry replies are not stored: the same extra is only a note there.
    const inquiry = loadFixture('item-inquiry', 'seller-reply');
    inquiry.seller_note = 'ok\u0000';
    expect(checkSellerReply('item-inquiry', loadFixture('item-inquiry', 'seller-request'), inquiry).ok).toBe(true);
  });

  it('passes the benchmark-size exchange (200 entries, 1000 locations)', () => {
    const { request, reply } = buildItemInquiryExchange({ items: 50, alternates: 3, locations: 5 });
    expect(checkSellerReply('item-inquiry', request, JSON.parse(JSON.stringify(reply)))).toEqual({
      ok: true,
      errors: [],
      violations: [],
      notes: [],
    });
  });
});
