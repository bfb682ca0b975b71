import {
  ItemStatus,
  OverallStatus,
  type ItemInquirySellerReply,
  type ItemInquirySellerRequest,
  type RequestedItem,
  type SellerItemLocation,
  type SellerItemResult,
} from '../contracts/index';
import type { ScenarioStock } from '../contracts/schemas/scenario';
import type { IndexedPart, SellerData } from './seller-data';

// Item inquiry: each requested id answered once for the part itself (1 stocked / 0 unknown),
// then once per alternate, superseded or equivalent part, with only the forwarded locations.

function locationOf(data: SellerData, locationId: string, stock: ScenarioStock): SellerItemLocation {
  const location = data.findLocation(locationId);
  return {
    id: locationId,
    type: location?.type,
    cost: stock.cost,
    list: stock.list,
    core: stock.core,
    bundle_cost: stock.bundle_cost,
    pack_code: stock.pack_code,
    pack_quantity: stock.pack_quantity,
    quantity_available: stock.quantity_available,
    route_times: location?.route_times,
  };
}

function locationsOf(data: SellerData, indexed: IndexedPart, forwarded: readonly string[]): SellerItemLocation[] {
  const out: SellerItemLocation[] = [];
  for (const locationId of forwarded) {
    const stock = indexed.stock.get(locationId);
    if (stock !== undefined) out.push(locationOf(data, locationId, stock)); // else: not carried here
  }
  return out;
}

/** The entry without id and locations, in the key order of the full entry. */
function partFields(indexed: IndexedPart, status: number, asked?: { part_number: string; mfr_code: string }) {
  const { part } = indexed;
  return {
    mfr_code: part.mfr_code,
    part_number: part.part_number,
    original_part: asked?.part_number,
    original_mfr: asked?.mfr_code,
    part_description: part.part_description,
    mfr_description: part.mfr_description,
    comment: part.comment,
    weight: part.weight,
    fee: part.fee,
    status_code: status,
  };
}

function entryFor(
  data: SellerData,
  id: string,
  indexed: IndexedPart,
  status: number,
  forwarded: readonly string[],
  asked?: RequestedItem,
): SellerItemResult {
  return { id, ...partFields(indexed, status, asked), locations: locationsOf(data, indexed, forwarded) };
}

/**
 * The forwarded location ids, each once, in the order sent. Unknown ids
 * simply get no data, as a seller would answer for a store it lacks.
 */
function forwardedLocationIds(request: ItemInquirySellerRequest): string[] {
  const forwarded: string[] = [];
  for (const location of request.locations) if (!forwarded.includes(location.id)) forwarded.push(location.id);
  return forwarded;
}

/** The answer for a part the catalogue does not have. */
const notFoundEntry = (asked: RequestedItem): SellerItemResult => ({
  id: asked.id,
  mfr_code: asked.mfr_code,
  part_number: asked.part_number,
  comment: 'Part not found',
  status_code: ItemStatus.NotFound,
  locations: [],
});

export function answerItemInquiry(data: SellerData, request: ItemInquirySellerRequest): ItemInquirySellerReply {
  const forwarded = forwardedLocationIds(request);
  const items: SellerItemResult[] = [];
  for (const asked of request.items) {
    const indexed = data.findPart(asked.mfr_code, asked.part_number);
    if (indexed === undefined) {
      items.push(notFoundEntry(asked));
      continue;
    }
    items.push(entryFor(data, asked.id, indexed, ItemStatus.Found, forwarded));
    for (const related of indexed.related)
      items.push(entryFor(data, asked.id, related.part, related.status, forwarded, asked));
  }
  return { status_code: OverallStatus.Success, items };
}

// The hot path: the same bytes as JSON.stringify(answerItemInquiry(...)), assembled from
// fragments encoded once per part (and per stock record, again when its quantity changes).
// Serialising a 5 kB reply object, and even encoding a 5 kB string per request, costs more
// than everything else the mock does; copying cached bytes does not.

const inner = (value: object) => JSON.stringify(value).slice(1, -1);
// Keyed by index objects: a reindexed scenario (reset, provider state) starts afresh.
const foundHeads = new WeakMap<IndexedPart, Buffer>();
const relatedHeads = new WeakMap<object, Buffer>();
const stockFragments = new WeakMap<ScenarioStock, { quantity: number; data: SellerData; bytes: Buffer }>();
const OPEN = Buffer.from(`{"status_code":${OverallStatus.Success},"items":[`);
const CLOSE_ENTRY = Buffer.from(']}');
const CLOSE = Buffer.from(']}');
const COMMA = Buffer.from(',');

/** `,"mfr_code":…,"status_code":n,"locations":[` — the entry between its id and its locations. */
const headOf = (indexed: IndexedPart, status: number, asked?: RequestedItem) =>
  Buffer.from(`,${inner(partFields(indexed, status, asked))},"locations":[`);

function pushLocations(out: Buffer[], data: SellerData, indexed: IndexedPart, forwarded: readonly string[]): number {
  let length = 0;
  for (let i = 0; i < forwarded.length; i++) {
    const stock = indexed.stock.get(forwarded[i]);
    if (stock === undefined) continue;
    let cached = stockFragments.get(stock);
    if (cached === undefined || cached.quantity !== stock.quantity_available || cached.data !== data) {
      cached = {
        quantity: stock.quantity_available,
        data,
        bytes: Buffer.from(JSON.stringify(locationOf(data, forwarded[i], stock))),
      };
      stockFragments.set(stock, cached);
    }
    if (length > 0) {
      out.push(COMMA);
      length += 1;
    }
    out.push(cached.bytes);
    length += cached.bytes.length;
  }
  return length;
}

export function itemInquiryBody(data: SellerData, request: ItemInquirySellerRequest): Buffer {
  const forwarded = forwardedLocationIds(request);
  const out: Buffer[] = [OPEN];
  let length = OPEN.length + CLOSE.length;
  const items = request.items;
  for (let i = 0; i < items.length; i++) {
    const asked = items[i];
    if (i > 0) {
      out.push(COMMA);
      length += 1;
    }
    const indexed = data.findPart(asked.mfr_code, asked.part_number);
    if (indexed === undefined) {
      const entry = Buffer.from(JSON.stringify(notFoundEntry(asked)));
      out.push(entry);
      length += entry.length;
      continue;
    }
    const id = Buffer.from(`{"id":${JSON.stringify(asked.id)}`);
    let head = foundHeads.get(indexed);
    if (head === undefined) foundHeads.set(indexed, (head = headOf(indexed, ItemStatus.Found)));
    out.push(id, head);
    length += id.length + head.length + CLOSE_ENTRY.length + pushLocations(out, data, indexed, forwarded);
    out.push(CLOSE_ENTRY);
    for (const related of indexed.related) {
      // A related entry's original_part/original_mfr is the part it hangs off, so one head per relation.
      let relatedHead = relatedHeads.get(related);
      if (relatedHead === undefined)
        relatedHeads.set(related, (relatedHead = headOf(related.part, related.status, asked)));
      out.push(COMMA, id, relatedHead);
      length +=
        1 + id.length + relatedHead.length + CLOSE_ENTRY.length + pushLocations(out, data, related.part, forwarded);
      out.push(CLOSE_ENTRY);
    }
  }
  out.push(CLOSE);
  return Buffer.concat(out, length);
}
