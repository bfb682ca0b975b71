import {
  ItemStatus,
  OverallStatus,
  type ItemInquirySellerReply,
  type ItemInquirySellerRequest,
  type RequestedItem,
  type SellerItemLocation,
  type SellerItemResult,
} from '../contracts/index';
import type { IndexedPart, SellerData } from './seller-data';

// Item inquiry: each requested id answered once for the part itself (1 stocked / 0 unknown),
// then once per alternate, superseded or equivalent part, with only the forwarded locations.

function locationsOf(data: SellerData, indexed: IndexedPart, forwarded: readonly string[]): SellerItemLocation[] {
  const out: SellerItemLocation[] = [];
  for (const locationId of forwarded) {
    const stock = indexed.stock.get(locationId);
    if (stock === undefined) continue; // this location does not carry the part
    const location = data.findLocation(locationId);
    const entry: SellerItemLocation = {
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
    out.push(entry);
  }
  return out;
}

function entryFor(data: SellerData, id: string, indexed: IndexedPart, status: number, forwarded: readonly string[], asked?: RequestedItem): SellerItemResult {
  const { part } = indexed;
  return {
    id,
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
    locations: locationsOf(data, indexed, forwarded),
  };
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
