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
import { createReplySlab } from './reply-slab';
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

// The hot path: the same bytes as JSON.stringify(answerItemInquiry(...)). Serialising a
// 5 kB reply object costs more than everything else the mock does, so each part's entries
// for a set of forwarded locations are encoded once, as a template (the bytes between the
// item ids); a request then only writes its ids and copies the templates, straight into a
// slab (reply-slab.ts) rather than a Buffer of its own. A template remembers the stock
// quantities it was built from and is rebuilt when one changes (orders lower stock).

interface ItemTemplate {
  data: SellerData;
  stocks: ScenarioStock[];
  quantities: number[];
  /** Entry j after its id: `,"mfr_code":…,"locations":[…]}`, then `,{"id":` unless it is the last. */
  segments: Buffer[];
  /** Sum of the segments' lengths. */
  length: number;
}

const ID_OPEN = '{"id":';
const OPEN = Buffer.from(`{"status_code":${OverallStatus.Success},"items":[`);
const CLOSE = Buffer.from(']}');
const COMMA = 0x2c;
const NEXT_ENTRY = `]},${ID_OPEN}`;
/** Templates per part, by forwarded locations; keyed by index objects, so a reindexed scenario starts afresh. */
const templates = new WeakMap<IndexedPart, Map<string, ItemTemplate>>();
/** Forwarded-location sets per part before its templates are dropped (requests may name any ids). */
const MAX_TEMPLATES_PER_PART = 64;
const slab = createReplySlab();

function buildTemplate(data: SellerData, indexed: IndexedPart, forwarded: readonly string[]): ItemTemplate {
  const asked = { mfr_code: indexed.part.mfr_code, part_number: indexed.part.part_number };
  const entries = [{ part: indexed, status: ItemStatus.Found as number, asked: undefined as typeof asked | undefined }, ...indexed.related.map((r) => ({ part: r.part, status: r.status, asked }))];
  const stocks: ScenarioStock[] = [];
  const segments = entries.map(({ part, status, asked: original }, j) => {
    const locations: string[] = [];
    for (const id of forwarded) {
      const stock = part.stock.get(id);
      if (stock === undefined) continue;
      stocks.push(stock);
      locations.push(JSON.stringify(locationOf(data, id, stock)));
    }
    const fields = JSON.stringify(partFields(part, status, original)).slice(1, -1);
    return Buffer.from(`,${fields},"locations":[${locations.join(',')}${j < entries.length - 1 ? NEXT_ENTRY : ']}'}`);
  });
  return { data, stocks, quantities: stocks.map((s) => s.quantity_available), segments, length: segments.reduce((n, b) => n + b.length, 0) };
}

function templateFor(data: SellerData, indexed: IndexedPart, forwarded: readonly string[], key: string): ItemTemplate {
  let byLocations = templates.get(indexed);
  if (byLocations === undefined) templates.set(indexed, (byLocations = new Map()));
  const found = byLocations.get(key);
  if (found !== undefined && found.data === data) {
    let fresh = true;
    for (let i = 0; i < found.stocks.length; i++) {
      if (found.stocks[i].quantity_available !== found.quantities[i]) {
        fresh = false;
        break;
      }
    }
    if (fresh) return found;
  }
  if (found === undefined && byLocations.size >= MAX_TEMPLATES_PER_PART) byLocations.clear();
  const built = buildTemplate(data, indexed, forwarded);
  byLocations.set(key, built);
  return built;
}

// Per-request scratch, reused: the function is synchronous, so no two requests share it at once.
const scratchTemplates: (ItemTemplate | string)[] = [];
const scratchIds: string[] = [];

export function itemInquiryBody(data: SellerData, request: ItemInquirySellerRequest): Buffer {
  const forwarded: string[] = [];
  let key = '';
  for (const location of request.locations) {
    if (forwarded.includes(location.id)) continue;
    forwarded.push(location.id);
    key = forwarded.length === 1 ? location.id : `${key}\u0000${location.id}`;
  }
  const items = request.items;
  let length = OPEN.length + CLOSE.length + Math.max(0, items.length - 1);
  for (let i = 0; i < items.length; i++) {
    const asked = items[i];
    const indexed = data.findPart(asked.mfr_code, asked.part_number);
    if (indexed === undefined) {
      const entry = JSON.stringify({ id: asked.id, mfr_code: asked.mfr_code, part_number: asked.part_number, comment: 'Part not found', status_code: ItemStatus.NotFound, locations: [] });
      scratchTemplates[i] = entry;
      length += Buffer.byteLength(entry);
      continue;
    }
    const template = templateFor(data, indexed, forwarded, key);
    const id = JSON.stringify(asked.id);
    scratchTemplates[i] = template;
    scratchIds[i] = id;
    length += ID_OPEN.length + template.segments.length * Buffer.byteLength(id) + template.length;
  }
  const bytes = slab.take(length);
  bytes.set(OPEN, 0);
  let at = OPEN.length;
  for (let i = 0; i < items.length; i++) {
    if (i > 0) bytes[at++] = COMMA;
    const template = scratchTemplates[i];
    if (typeof template === 'string') {
      at += bytes.write(template, at);
      continue;
    }
    at += bytes.write(ID_OPEN, at, 'latin1');
    const id = scratchIds[i];
    const segments = template.segments;
    for (let j = 0; j < segments.length; j++) {
      at += bytes.write(id, at);
      bytes.set(segments[j], at);
      at += segments[j].length;
    }
  }
  bytes.set(CLOSE, at);
  scratchTemplates.length = 0;
  scratchIds.length = 0;
  return bytes;
}
