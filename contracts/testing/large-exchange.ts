import { ItemStatus, LocationType, OverallStatus } from '../codes';
import type {
  ItemInquirySellerReply,
  ItemInquirySellerRequest,
  SellerItemLocation,
  SellerItemResult,
} from '../schemas/item-inquiry';

// A deterministic, valid item-inquiry exchange of any size: the benchmark's workload and a
// large case for the tests. Every entry is filled the way a real seller fills it (all
// optional fields, one route time per location) so the size is representative.

export interface ExchangeSize {
  items: number;
  /** Extra entries per item (cycling alternate, superseded, equivalent). */
  alternates: number;
  /** Locations forwarded, and answered on every entry. */
  locations: number;
  /** Route times on each location (default 1). */
  routeTimes?: number;
  /**
   * Every route time in the reply a different string (the minute and second follow the
   * entry), where a real seller repeats a location's delivery runs on every entry: the worst
   * case for the validator's memo of accepted route times (contracts/format-memo.ts).
   */
  distinctRouteTimes?: boolean;
}

const RELATED = [ItemStatus.Alternate, ItemStatus.Superseded, ItemStatus.Equivalent];

const twoDigits = (n: number) => String(n).padStart(2, '0');

// Route times belong to a location (its delivery run), so each location has its own.
function location(id: string, at: number, n: number, routeTimes: number, distinct: boolean): SellerItemLocation {
  const cost = 10 + (n % 97) + 0.25;
  const hour = 10 + at;
  // ':30:00', ':00:00', ':15:00', or (distinct) minutes and seconds that change with every entry
  const minuteSecond = (minute: number) =>
    distinct ? `${twoDigits((minute + n) % 60)}:${twoDigits(Math.floor(n / 60) % 60)}` : `${twoDigits(minute)}:00`;
  return {
    id,
    type: at < 3 ? LocationType.Store : LocationType.Warehouse,
    cost,
    list: Math.round(cost * 135) / 100,
    ...(n % 3 === 0 ? { core: 12.5 } : {}),
    pack_code: 'EA',
    pack_quantity: 1,
    quantity_available: n % 11,
    route_times: Array.from({ length: routeTimes }, (_, r) => ({
      cutoff_time: `2026-03-0${2 + r} ${hour}:${minuteSecond(30)}`,
      arrival_time: `2026-03-0${2 + r} ${hour + 2}:${minuteSecond(0)}`,
      pickup_time: `2026-03-0${2 + r} ${hour + 2}:${minuteSecond(15)}`,
      route_code: `R${at + 1}`,
    })),
  };
}

export function buildItemInquiryExchange(size: ExchangeSize): {
  request: ItemInquirySellerRequest;
  reply: ItemInquirySellerReply;
} {
  const locations = Array.from({ length: size.locations }, (_, i) => ({
    id: `L${101 + i}`,
    member: 'M100',
    account: 'A-1001',
  }));
  const items = Array.from({ length: size.items }, (_, i) => ({
    id: `item-${i + 1}`,
    mfr_code: `MF${i % 9}`,
    part_number: `PN-${10000 + i}`,
  }));
  const entries: SellerItemResult[] = [];
  let n = 0;
  for (const item of items) {
    const base = {
      part_description: 'Brake pad set, front',
      mfr_description: `Manufacturer ${item.mfr_code}`,
      weight: 2.4,
      fee: 0,
    };
    entries.push({
      id: item.id,
      mfr_code: item.mfr_code,
      part_number: item.part_number,
      ...base,
      status_code: ItemStatus.Found,
      locations: locations.map((l, at) =>
        location(l.id, at, n++, size.routeTimes ?? 1, size.distinctRouteTimes === true),
      ),
    });
    for (let a = 0; a < size.alternates; a++) {
      entries.push({
        id: item.id,
        mfr_code: `ALT${a}`,
        part_number: `${item.part_number}-A${a}`,
        original_part: item.part_number,
        original_mfr: item.mfr_code,
        ...base,
        comment: 'Fits the same applications',
        status_code: RELATED[a % RELATED.length],
        locations: locations.map((l, at) =>
          location(l.id, at, n++, size.routeTimes ?? 1, size.distinctRouteTimes === true),
        ),
      });
    }
  }
  return {
    request: { service: 'item_inquiry', integration: 'bench', terminal_id: 'T1', locations, items },
    reply: { status_code: OverallStatus.Success, items: entries },
  };
}
