import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { ItemInquiryBuyerRequest, ItemInquirySellerReply } from '../../contracts/index';
import type { UserLocation } from '../directory/directory';
import { mergeReplies } from '../operations/item-merge';
import { mergeRepliesWithShortcut } from './merge-shortcut';

// The one-member shortcut must answer exactly what the full merge answers, whatever order or
// repetition the reply has: the shortcut only decides when it may skip the keying and sorting.

const LOCATIONS: UserLocation[] = ['L1', 'L2', 'L3', 'L4'].map((locationId, i) => ({
  locationId,
  memberId: 'M1',
  accountId: `A${i}`,
  description: `Store ${locationId}`,
  type: 1 + (i % 2),
  canOrder: i !== 2,
  sortOrder: [3, 1, 4, 2][i],
}));
const INDEX = new Map(LOCATIONS.map((l) => [l.locationId, l]));

const ids = ['1', '2', '3', '4'];
const location = fc.record({
  id: fc.constantFrom('L1', 'L2', 'L3', 'L4', 'L9'),
  quantity_available: fc.integer({ min: 0, max: 5 }),
});
const entry = fc.record({
  id: fc.constantFrom(...ids, 'x'),
  status_code: fc.constantFrom(0, 1, 1, 2, 3, 4),
  mfr_code: fc.constantFrom('WIX', 'ACD'),
  part_number: fc.constantFrom('51515', '51516'),
  locations: fc.array(location, { maxLength: 4 }),
});
/** Mostly replies already in order (the shortcut's case), sometimes shuffled or repeated. */
const reply = fc.array(entry, { maxLength: 9 }).chain((items) =>
  fc.constantFrom(
    items,
    [...items].sort(
      (a, b) => ids.indexOf(a.id) - ids.indexOf(b.id) || Number(a.status_code > 1) - Number(b.status_code > 1),
    ),
  ),
);
const exchange = fc.record({
  requested: fc.subarray(ids, { minLength: 1 }),
  items: reply,
  asked: fc.subarray(['L1', 'L2', 'L3', 'L4']),
});

const requestOf = (requested: string[]) =>
  ({ items: requested.map((id) => ({ id, mfr_code: 'WIX', part_number: '51515' })) }) as ItemInquiryBuyerRequest;
const replyOf = (items: unknown[]) => ({ status_code: 2000, items }) as ItemInquirySellerReply;

describe('item inquiry merge', () => {
  it("gives the full merge's entries for any one reply, in order or not", () => {
    let shortcuts = 0;
    fc.assert(
      fc.property(exchange, ({ requested, items, asked }) => {
        const request = requestOf(requested);
        const full = mergeReplies(request, [{ reply: replyOf(structuredClone(items)) }], INDEX, new Set(asked));
        const oneReply = replyOf(structuredClone(items));
        const merged = mergeRepliesWithShortcut(request, [{ reply: oneReply }], INDEX, new Set(asked));
        if (merged === oneReply.items) shortcuts++;
        expect(merged).toEqual(full);
      }),
      { numRuns: 1_000 },
    );
    // The generator must exercise the shortcut, not only the fallback.
    expect(shortcuts).toBeGreaterThan(100);
  });

  it('enriches in place and keeps a reply in request order as it is', () => {
    const request = requestOf(['1', '2']);
    const items = [
      { id: '1', status_code: 1, mfr_code: 'WIX', part_number: '51515', locations: [{ id: 'L1' }, { id: 'L2' }] },
      { id: '1', status_code: 2, mfr_code: 'ACD', part_number: '9', locations: [] },
      { id: '2', status_code: 0, mfr_code: 'WIX', part_number: '51516', locations: [{ id: 'L9' }] },
    ];
    const merged = mergeRepliesWithShortcut(request, [{ reply: replyOf(items) }], INDEX, new Set(['L1', 'L2']));
    expect(merged).toBe(items);
    expect(merged.map((e) => e.locations.map((l) => [l.id, l.sort_order, l.description]))).toEqual([
      [
        ['L2', 1, 'Store L2'],
        ['L1', 3, 'Store L1'],
      ],
      [],
      [],
    ]);
  });

  it('joins a repeated entry and puts a reply out of request order in order', () => {
    const request = requestOf(['1', '2']);
    const items = [
      { id: '2', status_code: 1, mfr_code: 'WIX', part_number: '51516', locations: [{ id: 'L1' }] },
      { id: '1', status_code: 1, mfr_code: 'WIX', part_number: '51515', locations: [{ id: 'L1' }] },
      { id: '1', status_code: 1, mfr_code: 'WIX', part_number: '51515', locations: [{ id: 'L2' }] },
    ];
    const merged = mergeRepliesWithShortcut(request, [{ reply: replyOf(items) }], INDEX, new Set(['L1', 'L2']));
    expect(merged.map((e) => [e.id, e.locations.map((l) => l.id)])).toEqual([
      ['1', ['L2', 'L1']],
      ['2', ['L1']],
    ]);
  });
});
