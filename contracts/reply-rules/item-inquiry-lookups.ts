import { ItemStatus, PACK_CODES } from '../codes';
import type { LocationRef, RequestedItem, SellerItemLocation, SellerItemResult } from '../schemas/item-inquiry';

// The look-ups behind the item inquiry rules (item-inquiry.ts). The gateway runs those rules on
// every seller reply it relays (lab/bench-contracts.ts), so each look-up here spares work on
// the valid path; the rules read the same without knowing how.

/** One requested item and how many reply entries answer it: in all, and for the requested part itself. */
export interface Tally {
  asked: RequestedItem;
  entries: number;
  requestedPart: number;
}

/** The request's items by id, each with its tally of the entries that answer it. */
export class AskedItems {
  declare private readonly byId: Map<string, Tally>;
  // Why: a freshly parsed reply's strings have no hash yet, so every Map look-up hashes its
  // key; entries of one id come together, so comparing with the previous id spares most.
  declare private lastId: string | undefined;
  declare private lastTally: Tally | undefined;

  // (`declare` fields, set here: a class field initialiser would cost a call per reply.)
  constructor(items: readonly RequestedItem[]) {
    const byId = new Map<string, Tally>();
    for (let n = 0; n < items.length; n++) byId.set(items[n].id, { asked: items[n], entries: 0, requestedPart: 0 });
    this.byId = byId;
    this.lastId = undefined;
    this.lastTally = undefined;
  }

  /** The tally of the item this entry answers, counting the entry in it; undefined when its id was not requested. */
  answer(entry: SellerItemResult): Tally | undefined {
    if (entry.id !== this.lastId) {
      this.lastId = entry.id;
      this.lastTally = this.byId.get(entry.id);
    }
    const tally = this.lastTally;
    if (tally !== undefined) {
      tally.entries++;
      if (isRequestedPart(entry.status_code)) tally.requestedPart++;
    }
    return tally;
  }

  /** The requested ids, in request order. */
  ids(): string[] {
    return [...this.byId.keys()];
  }

  /** Every requested item's tally, in request order. */
  tallies(): IterableIterator<Tally> {
    return this.byId.values();
  }
}

/** Status 0 (not found) or 1 (found): the entry is the requested part itself. */
export const isRequestedPart = (status: number): boolean =>
  status === ItemStatus.NotFound || status === ItemStatus.Found;

/** The forwarded locations, found by id, and which of them the current entry already listed. */
export class ForwardedLocations {
  declare readonly ids: string[];
  // Why: for a handful of locations a scan is cheaper than hashing the reply's fresh strings.
  declare private readonly few: boolean;
  declare private readonly indexById: Map<string, number> | undefined;
  // Why: one typed array instead of a Set per entry. lastListedBy[n] is the number (from 1) of
  // the last entry that listed forwarded location n, so a new entry needs no clearing.
  declare private readonly lastListedBy: Int32Array;

  constructor(locations: readonly LocationRef[]) {
    const ids: string[] = [];
    for (let n = 0; n < locations.length; n++) ids.push(locations[n].id);
    this.ids = ids;
    this.few = ids.length <= 8;
    this.indexById = this.few ? undefined : indexById(ids);
    this.lastListedBy = new Int32Array(ids.length);
  }

  /** Index of location `id` among the forwarded ones, or -1; `j` is where it stands in its entry. */
  indexOf(id: string, j: number): number {
    // Why: sellers answer the locations in the order they were forwarded, so try that place first.
    if (this.ids[j] === id) return j;
    if (this.few) return this.ids.indexOf(id);
    return this.indexById?.get(id) ?? -1;
  }

  /**
   * Whether location j of entry i repeats an earlier location of that entry; `at` is its
   * forwarded index (-1 when not forwarded). Notes it as listed by entry i.
   */
  repeatsInEntry(i: number, locations: readonly SellerItemLocation[], j: number, at: number): boolean {
    if (at === -1) return repeatsEarlier(locations, j);
    if (this.lastListedBy[at] === i + 1) return true;
    this.lastListedBy[at] = i + 1;
    return false;
  }
}

function indexById(ids: readonly string[]): Map<string, number> {
  const byId = new Map<string, number>();
  for (let n = 0; n < ids.length; n++) byId.set(ids[n], n);
  return byId;
}

/** A location that was not forwarded is not noted: look back through its entry (rare, a broken reply). */
function repeatsEarlier(locations: readonly SellerItemLocation[], j: number): boolean {
  const id = locations[j].id;
  for (let k = 0; k < j; k++) if (locations[k].id === id) return true;
  return false;
}

const COMMON_PACK_CODES = new Set<string>(PACK_CODES);

/** Pack codes of the common list; remembers the last one found in it. */
export class PackCodes {
  // Why: a seller's locations mostly share one pack code, and comparing with the previous one
  // spares hashing a fresh string. (It starts at '', a pack code the schema never lets through.)
  declare private last: string;

  constructor() {
    this.last = '';
  }

  isCommon(code: string): boolean {
    if (code === this.last) return true;
    if (!COMMON_PACK_CODES.has(code)) return false;
    this.last = code;
    return true;
  }
}
