import {
  REQUESTED_PART_STATUSES,
  type BuyerItemLocation,
  type BuyerItemResult,
  type ItemInquiryBuyerRequest,
  type ItemInquirySellerReply,
} from '../../contracts/index';
import type { UserLocation } from '../directory/directory';
import { sortUnlessInOrder } from './in-order';

// Item inquiry's merge: the checked seller replies become the buyer's entries. One entry per
// requested part (and per alternate), the locations of every member joined, each location
// with the buyer's view of it, entries in request order and locations by sort_order. The
// seller replies were parsed for this request alone, so they are enriched and merged in
// place: no copies on the hot path. The gateway takes a shortcut for the usual buyer's one
// reply (gateway/speedups/merge-shortcut.ts), tested against this merge.

export type SellerItem = ItemInquirySellerReply['items'][number];

export const isRequestedPart = (item: SellerItem) => REQUESTED_PART_STATUSES.includes(item.status_code);
export const mergeKey = (item: SellerItem) =>
  isRequestedPart(item)
    ? `${item.id}\u0000`
    : `${item.id}\u0000${item.status_code}\u0000${item.mfr_code}\u0000${item.part_number}`;

export const bySortOrder = (a: BuyerItemLocation, b: BuyerItemLocation) => (a.sort_order ?? 0) - (b.sort_order ?? 0);

/** Adds the buyer's view to each location and drops any that was not forwarded (a lenient member's slip). */
export function enrich(
  locations: SellerItem['locations'],
  index: Map<string, UserLocation>,
  asked: ReadonlySet<string>,
): void {
  let kept = 0;
  for (let i = 0; i < locations.length; i++) {
    const location = locations[i] as BuyerItemLocation;
    const mine = index.get(location.id);
    if (mine === undefined || !asked.has(location.id)) continue;
    if (location.type === undefined) location.type = mine.type;
    location.description = mine.description;
    location.can_order = mine.canOrder;
    location.sort_order = mine.sortOrder;
    locations[kept++] = location;
  }
  locations.length = kept;
}

/** The request's position of each item id. */
const requestOrder = (request: ItemInquiryBuyerRequest) => new Map(request.items.map((item, i) => [item.id, i]));

/** The buyer's entries from any number of replies, in any order, with repeated entries: keyed, joined, then sorted. */
export function mergeReplies(
  request: ItemInquiryBuyerRequest,
  replies: readonly { reply: ItemInquirySellerReply }[],
  index: Map<string, UserLocation>,
  asked: ReadonlySet<string>,
): BuyerItemResult[] {
  const entries = new Map<string, SellerItem>();
  for (const { reply } of replies) {
    for (const item of reply.items) {
      enrich(item.locations, index, asked);
      const key = mergeKey(item);
      const seen = entries.get(key);
      if (seen === undefined) {
        entries.set(key, item);
      } else if (seen.status_code === 0 && item.status_code !== 0) {
        // The same part from another member: a "found" beats "not found"; locations join.
        item.locations = [...seen.locations, ...item.locations];
        entries.set(key, item);
      } else {
        seen.locations.push(...item.locations);
      }
    }
  }
  const order = requestOrder(request);
  const merged = [...entries.values()] as BuyerItemResult[];
  for (const entry of merged) if (entry.locations.length > 1) sortUnlessInOrder(entry.locations, bySortOrder);
  // Request order; within one id the requested part first, alternates after (stable sort).
  return sortUnlessInOrder(
    merged,
    (a, b) =>
      (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0) ||
      Number(!isRequestedPart(a as SellerItem)) - Number(!isRequestedPart(b as SellerItem)),
  );
}
