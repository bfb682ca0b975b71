import fc from 'fast-check';
import { ItemOrderStatus, ItemStatus, LocationType, OrderType, OverallStatus, PACK_CODES } from '../codes';
import type { RuleName } from '../reply-rules/violation';
import type {
  ItemInquirySellerReply,
  ItemInquirySellerRequest,
  LocationRef,
  RequestedItem,
  RouteTime,
  SellerItemLocation,
  SellerItemResult,
} from '../schemas/item-inquiry';
import type { PlaceOrderSellerReply, PlaceOrderSellerRequest, SellerOrderItem } from '../schemas/place-order';

// fast-check arbitraries for valid forwarded requests with a valid seller reply to each,
// and single mutations that break exactly one rule. The property tests use them; so can
// the mock seller's and the gateway's tests.
//
// Generated ids are upper case (items) or `L<digits>` (locations); the mutations invent
// lower-case ids, which therefore can never collide with a generated one.

export interface ItemInquiryExchange {
  request: ItemInquirySellerRequest;
  reply: ItemInquirySellerReply;
}

export interface PlaceOrderExchange {
  request: PlaceOrderSellerRequest;
  reply: PlaceOrderSellerReply;
}

/** Codes, part numbers, manufacturer codes: short, upper case, never empty. */
// (fc.string over a fixed alphabet: fc.stringMatching is ~10x slower, and an exchange needs hundreds.)
const CODE_CHARS = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789');
export const code = () => fc.string({ unit: CODE_CHARS, minLength: 1, maxLength: 6 });
const money = () => fc.double({ min: 0, max: 100_000, noNaN: true, noDefaultInfinity: true });

const routeTimeText = () =>
  fc
    .date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2035-12-31T23:59:59Z'), noInvalidDate: true })
    .map((d) => d.toISOString().slice(0, 19).replace('T', ' '));

export const routeTime = (): fc.Arbitrary<RouteTime> =>
  fc.record({
    cutoff_time: routeTimeText(),
    arrival_time: routeTimeText(),
    pickup_time: routeTimeText(),
    route_code: code(),
  });

export const locationRefs = (): fc.Arbitrary<LocationRef[]> =>
  fc.uniqueArray(
    fc.record({
      id: fc.integer({ min: 1, max: 9999 }).map((n) => `L${n}`),
      member: fc.constantFrom('M100', 'M200'),
      account: fc.constantFrom('A-1001', 'A-1002', 'A-2001', 'A-2002'),
    }),
    { minLength: 1, maxLength: 6, selector: (l) => l.id },
  );

export const requestedItems = (): fc.Arbitrary<RequestedItem[]> =>
  fc.uniqueArray(fc.record({ id: code(), mfr_code: code(), part_number: code() }), {
    minLength: 1,
    maxLength: 6,
    selector: (i) => i.id,
  });

/** A seller's data for one location: required fields always, optional ones sometimes. */
export const sellerLocation = (id: string): fc.Arbitrary<SellerItemLocation> =>
  fc.record(
    {
      id: fc.constant(id),
      type: fc.constantFrom(LocationType.Store, LocationType.Warehouse),
      cost: money(),
      list: money(),
      core: money(),
      bundle_cost: money(),
      pack_code: fc.constantFrom(...PACK_CODES),
      pack_quantity: fc.integer({ min: 1, max: 100 }),
      quantity_available: fc.integer({ min: 0, max: 10_000 }),
      route_times: fc.array(routeTime(), { maxLength: 2 }),
    },
    { requiredKeys: ['id', 'cost', 'list', 'pack_code', 'pack_quantity', 'quantity_available'] },
  );

/** Some of the forwarded locations (possibly none), each with seller data. */
const answeredLocations = (forwarded: LocationRef[]) =>
  fc.subarray(forwarded).chain((some) => fc.tuple(...some.map((l) => sellerLocation(l.id))));

const descriptive = {
  part_description: fc.string({ maxLength: 30 }),
  mfr_description: fc.string({ maxLength: 20 }),
  comment: fc.string({ maxLength: 30 }),
  weight: fc.double({ min: 0, max: 500, noNaN: true, noDefaultInfinity: true }),
  fee: money(),
};

/** The entry for the requested part itself: status 0 or 1, its own mfr_code/part_number. */
const requestedPartEntry = (asked: RequestedItem, forwarded: LocationRef[]): fc.Arbitrary<SellerItemResult> =>
  fc.record(
    {
      id: fc.constant(asked.id),
      mfr_code: fc.constant(asked.mfr_code),
      part_number: fc.constant(asked.part_number),
      ...descriptive,
      status_code: fc.constantFrom(ItemStatus.NotFound, ItemStatus.Found),
      locations: answeredLocations(forwarded),
    },
    { requiredKeys: ['id', 'mfr_code', 'part_number', 'status_code', 'locations'] },
  );

/** An alternate, superseded or equivalent part standing in for the requested one. */
const relatedEntry = (asked: RequestedItem, forwarded: LocationRef[]): fc.Arbitrary<SellerItemResult> =>
  fc.record(
    {
      id: fc.constant(asked.id),
      mfr_code: code(),
      part_number: code(),
      original_part: fc.constant(asked.part_number),
      original_mfr: fc.constant(asked.mfr_code),
      ...descriptive,
      status_code: fc.constantFrom(ItemStatus.Alternate, ItemStatus.Superseded, ItemStatus.Equivalent),
      locations: answeredLocations(forwarded),
    },
    { requiredKeys: ['id', 'mfr_code', 'part_number', 'original_part', 'original_mfr', 'status_code', 'locations'] },
  );

/** A valid forwarded item-inquiry request and a valid seller reply to it, entries in any order. */
export const itemInquiryExchange = (): fc.Arbitrary<ItemInquiryExchange> =>
  fc.tuple(locationRefs(), requestedItems()).chain(([locations, items]) => {
    const entries = items.map((asked) =>
      fc
        .tuple(requestedPartEntry(asked, locations), fc.array(relatedEntry(asked, locations), { maxLength: 3 }))
        .map(([own, related]) => [own, ...related]),
    );
    return fc.tuple(fc.tuple(...entries), fc.option(code(), { nil: undefined })).chain(([grouped, integration]) => {
      const flat = grouped.flat();
      return fc.shuffledSubarray(flat, { minLength: flat.length, maxLength: flat.length }).map((shuffled) => ({
        request: {
          service: 'item_inquiry' as const,
          ...(integration === undefined ? {} : { integration }),
          locations,
          items,
        },
        reply: { status_code: OverallStatus.Success, items: shuffled },
      }));
    });
  });

/** A valid forwarded order and a valid seller result answering every line once, in any order. */
export const placeOrderExchange = (): fc.Arbitrary<PlaceOrderExchange> =>
  fc
    .tuple(
      locationRefs(),
      fc.uniqueArray(
        fc.record({
          id: code(),
          mfr_code: code(),
          part_number: code(),
          quantity_ordered: fc.integer({ min: 1, max: 500 }),
        }),
        {
          minLength: 1,
          maxLength: 8,
          selector: (i) => i.id,
        },
      ),
      fc.constantFrom(...Object.values(OrderType)),
      code(),
    )
    .chain(([locations, lines, order_type, po]) =>
      fc
        .tuple(
          ...lines.map(() =>
            fc.tuple(fc.nat(locations.length - 1), fc.constantFrom(...Object.values(ItemOrderStatus))),
          ),
        )
        .chain((picks) => {
          const items: SellerOrderItem[] = lines.map((line, i) => {
            const at = locations[picks[i][0]];
            return { ...line, location_id: at.id, account_id: at.account, member_id: at.member };
          });
          const answered = lines.map((line, i) => ({
            id: line.id,
            status_code: picks[i][1],
            quantity_ordered: line.quantity_ordered,
          }));
          return fc
            .shuffledSubarray(answered, { minLength: answered.length, maxLength: answered.length })
            .map((shuffled) => ({
              request: { service: 'place_order' as const, purchase_order_number: `PO-${po}`, order_type, items },
              reply: { order_number: `SO-${po}`, status_code: OverallStatus.Success, items: shuffled },
            }));
        }),
    );

/**
 * One change to a valid reply and the rules it must break, no more, no fewer.
 * `applies` says whether the exchange has what the mutation needs; `apply` changes the
 * reply in place (`pick` chooses which entry) and returns the expected rule names.
 */
export interface Mutation<Ex> {
  name: string;
  applies(ex: Ex): boolean;
  apply(ex: Ex, pick: number): RuleName[];
}

const choose = <T>(xs: T[], pick: number): T => xs[pick % xs.length];
const isRelated = (e: SellerItemResult) => e.status_code >= ItemStatus.Alternate;
const isRequestedPart = (e: SellerItemResult) => e.status_code <= ItemStatus.Found;

export const ITEM_INQUIRY_MUTATIONS: Mutation<ItemInquiryExchange>[] = [
  {
    name: 'drop every entry of one requested id',
    applies: () => true,
    apply: ({ request, reply }, pick) => {
      const id = choose(request.items, pick).id;
      reply.items = reply.items.filter((e) => e.id !== id);
      return ['item.id-echo'];
    },
  },
  {
    name: 'change one requested id to an id nobody asked for',
    applies: () => true,
    apply: ({ request, reply }, pick) => {
      const id = choose(request.items, pick).id;
      for (const e of reply.items) if (e.id === id) e.id = `changed-${id.toLowerCase()}`;
      return ['item.unknown-id', 'item.id-echo'];
    },
  },
  {
    name: 'add an entry with an unknown id',
    applies: (ex) => ex.reply.items.length > 0,
    apply: ({ reply }, pick) => {
      reply.items.push({ ...structuredClone(choose(reply.items, pick)), id: 'never-asked' });
      return ['item.unknown-id'];
    },
  },
  {
    name: "change an alternate's original_part",
    applies: (ex) => ex.reply.items.some(isRelated),
    apply: ({ reply }, pick) => {
      const e = choose(reply.items.filter(isRelated), pick);
      e.original_part = `${e.original_part}-x`;
      return ['alternate.original-part'];
    },
  },
  {
    name: "change an alternate's original_mfr",
    applies: (ex) => ex.reply.items.some(isRelated),
    apply: ({ reply }, pick) => {
      const e = choose(reply.items.filter(isRelated), pick);
      e.original_mfr = `${e.original_mfr}-x`;
      return ['alternate.original-mfr'];
    },
  },
  {
    name: "drop an alternate's original_part",
    applies: (ex) => ex.reply.items.some(isRelated),
    apply: ({ reply }, pick) => {
      delete choose(reply.items.filter(isRelated), pick).original_part;
      return ['alternate.original-part'];
    },
  },
  {
    name: 'add a location that was not forwarded',
    applies: (ex) => ex.reply.items.length > 0,
    apply: ({ reply }, pick) => {
      const e = choose(reply.items, pick);
      e.locations.push({
        id: 'not-forwarded',
        cost: 1,
        list: 2,
        pack_code: 'EA',
        pack_quantity: 1,
        quantity_available: 3,
      });
      return ['location.not-forwarded'];
    },
  },
  {
    name: 'answer one location twice in an entry',
    applies: (ex) => ex.reply.items.some((e) => e.locations.length > 0),
    apply: ({ reply }, pick) => {
      const e = choose(
        reply.items.filter((x) => x.locations.length > 0),
        pick,
      );
      e.locations.push(structuredClone(choose(e.locations, pick)));
      return ['location.duplicate'];
    },
  },
  {
    name: 'duplicate the requested-part entry',
    applies: () => true,
    apply: ({ reply }, pick) => {
      reply.items.push(structuredClone(choose(reply.items.filter(isRequestedPart), pick)));
      return ['item.requested-part-duplicate'];
    },
  },
  {
    name: 'drop the requested-part entry, keeping its alternates',
    applies: (ex) => ex.reply.items.some(isRelated),
    apply: ({ reply }, pick) => {
      const id = choose(reply.items.filter(isRelated), pick).id;
      reply.items = reply.items.filter((e) => !(e.id === id && isRequestedPart(e)));
      return ['item.requested-part-missing'];
    },
  },
  {
    name: 'answer the requested id with another part number as status 0/1',
    applies: () => true,
    apply: ({ reply }, pick) => {
      const e = choose(reply.items.filter(isRequestedPart), pick);
      e.part_number = `${e.part_number}-x`;
      return ['item.requested-part-mismatch'];
    },
  },
  {
    name: 'give an alternate an item status outside the list',
    applies: (ex) => ex.reply.items.some(isRelated),
    apply: ({ reply }, pick) => {
      choose(reply.items.filter(isRelated), pick).status_code = 9 as never;
      return ['item.status-code'];
    },
  },
];

export const PLACE_ORDER_MUTATIONS: Mutation<PlaceOrderExchange>[] = [
  {
    name: 'leave an ordered line unanswered',
    applies: () => true,
    apply: ({ reply }, pick) => {
      reply.items.splice(pick % reply.items.length, 1);
      return ['order.id-echo'];
    },
  },
  {
    name: 'answer a line that was not ordered',
    applies: () => true,
    apply: ({ reply }, pick) => {
      reply.items.push({ ...choose(reply.items, pick), id: 'never-ordered' });
      return ['order.unknown-id'];
    },
  },
  {
    name: 'change the id of an answered line',
    applies: () => true,
    apply: ({ reply }, pick) => {
      const line = choose(reply.items, pick);
      line.id = `changed-${line.id.toLowerCase()}`;
      return ['order.unknown-id', 'order.id-echo'];
    },
  },
  {
    name: 'answer a line twice',
    applies: () => true,
    apply: ({ reply }, pick) => {
      reply.items.push({ ...choose(reply.items, pick) });
      return ['order.duplicate-id'];
    },
  },
  {
    name: 'give a line an item order status outside the list',
    applies: () => true,
    apply: ({ reply }, pick) => {
      choose(reply.items, pick).status_code = 7 as never;
      return ['order.item-status'];
    },
  },
];
