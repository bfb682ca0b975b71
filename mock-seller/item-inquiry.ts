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

function entryFor(data: SellerData, id: string, indexed: IndexedPart, status: number, forwarded: readonly string[], asked?: RequestedItem): SellerItemResult {
  return { id, ...partFields(indexed, status, asked), locations: locationsOf(data, indexed, forwarded) };
}

export function answerItemInquiry(data: SellerData, request: ItemInquirySellerRequest): ItemInquirySellerReply {
  // Unknown location ids simply get no data, as a seller would answer for a store it lacks.
  const forwarded: string[] = [];
  for (const location of request.locations) if (!forwarded.includes(location.id)) forwarded.push(location.id);
  const items: SellerItemResult[] = [];
  for (const asked of request.items) {
    const indexed = data.findPart(asked.mfr_code, asked.part_number);
    if (indexed === undefined) {
      items.push({
        id: asked.id,
        mfr_code: asked.mfr_code,
        part_number: asked.part_number,
        comment: 'Part not found',
        status_code: ItemStatus.NotFound,
        locations: [],
      });
      continue;
    }
    items.push(entryFor(data, asked.id, indexed, ItemStatus.Found, forwarded));
    for (const related of indexed.related) items.push(entryFor(data, asked.id, related.part, related.status, forwarded, asked));
  }
  return { status_code: OverallStatus.Success, items };
}

// The hot path: the same reply as JSON.stringify(answerItemInquiry(...)), assembled from
// fragments serialised once per part (and per stock record, again when its quantity
// changes). Serialising a 5 kB reply object costs more than everything else the mock does.

const inner = (value: object) => JSON.stringify(value).slice(1, -1);
const partFragments = new WeakMap<IndexedPart, Map<string, string>>();
const stockFragments = new WeakMap<ScenarioStock, { quantity: number; data: SellerData; text: string }>();

/** `,"mfr_code":…,"status_code":n,"locations":[` for this part answered with `status` under `asked`. */
function head(indexed: IndexedPart, status: number, asked?: RequestedItem): string {
  let byKey = partFragments.get(indexed);
  if (byKey === undefined) partFragments.set(indexed, (byKey = new Map()));
  const key = asked === undefined ? `${status}` : `${status}\u0000${asked.mfr_code}\u0000${asked.part_number}`;
  let text = byKey.get(key);
  if (text === undefined) byKey.set(key, (text = `,${inner(partFields(indexed, status, asked))},"locations":[`));
  return text;
}

function locationsText(data: SellerData, indexed: IndexedPart, forwarded: readonly string[]): string {
  let out = '';
  for (const locationId of forwarded) {
    const stock = indexed.stock.get(locationId);
    if (stock === undefined) continue;
    let cached = stockFragments.get(stock);
    if (cached === undefined || cached.quantity !== stock.quantity_available || cached.data !== data) {
      cached = { quantity: stock.quantity_available, data, text: JSON.stringify(locationOf(data, locationId, stock)) };
      stockFragments.set(stock, cached);
    }
    out += out === '' ? cached.text : `,${cached.text}`;
  }
  return out;
}

export function itemInquiryText(data: SellerData, request: ItemInquirySellerRequest): string {
  const forwarded: string[] = [];
  for (const location of request.locations) if (!forwarded.includes(location.id)) forwarded.push(location.id);
  let items = '';
  for (const asked of request.items) {
    const indexed = data.findPart(asked.mfr_code, asked.part_number);
    const id = `{"id":${JSON.stringify(asked.id)}`;
    let entries: string;
    if (indexed === undefined) {
      entries = `${id},${inner({ mfr_code: asked.mfr_code, part_number: asked.part_number, comment: 'Part not found', status_code: ItemStatus.NotFound, locations: [] })}}`;
    } else {
      entries = `${id}${head(indexed, ItemStatus.Found)}${locationsText(data, indexed, forwarded)}]}`;
      for (const related of indexed.related) {
        entries += `,${id}${head(related.part, related.status, asked)}${locationsText(data, related.part, forwarded)}]}`;
      }
    }
    items += items === '' ? entries : `,${entries}`;
  }
  return `{"status_code":${OverallStatus.Success},"items":[${items}]}`;
}
