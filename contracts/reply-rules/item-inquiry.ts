import { ItemStatus, LocationType, OverallStatus } from '../codes';
import type {
  ItemInquirySellerReply,
  ItemInquirySellerRequest,
  RequestedItem,
  SellerItemLocation,
  SellerItemResult,
} from '../schemas/item-inquiry';
import { AskedItems, ForwardedLocations, PackCodes, type Tally, isRequestedPart } from './item-inquiry-lookups';
import { type RuleCheck, violation } from './violation';

// The reply rules of an item inquiry: what a seller's reply must hold against the request that
// was forwarded to it, beyond the shape the schema gives. Each rule is one function named after
// its code (`item.unknown-id` → itemUnknownId), its meaning above it, as the vendor's reports
// page lists them (docs/vendor/reports.md, "The reply rules"). The reply is assumed to have
// passed the schema; code-list membership is checked here too, so the rules stand alone.

const ITEM_STATUSES = new Set<number>(Object.values(ItemStatus));
const LOCATION_TYPES = new Set<number>(Object.values(LocationType));
const OVERALL_STATUSES = new Set<number>(Object.values(OverallStatus));

/**
 * Every rule over one reply: the whole reply first, then each entry and its locations, then what
 * is missing, which only the end of the reply can tell. Findings come out in that order.
 */
export function checkItemInquiryReply(request: ItemInquirySellerRequest, reply: ItemInquirySellerReply): RuleCheck {
  const rules = itemInquiryRulesByPart;
  const state = rules.start(request);
  rules.reply(state, reply);
  const entries = reply.items;
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i];
    rules.entry(state, reply, entry, i);
    const locations = entry.locations;
    for (let j = 0; j < locations.length; j++) rules.location(state, reply, entry, i, locations[j], j);
  }
  rules.end(state, reply);
  return state.found;
}

/** What the rules remember while reading one reply: what was asked, and what was found so far. */
export interface ItemInquiryRuleState {
  found: RuleCheck;
  asked: AskedItems;
  forwarded: ForwardedLocations;
  packCodes: PackCodes;
}

/**
 * The rules grouped by the part of the reply they read, in the order checkItemInquiryReply calls
 * them: `reply` once (its status_code), `entry` per entry (its own fields), `location` per
 * location of that entry, `end` once (what is missing). Each is given the reply and the parts
 * enclosing the one it reads, and reads nothing further on, so any reader of the reply that
 * calls them in this order finds the same, in the same order.
 */
export const itemInquiryRulesByPart = {
  start(request: ItemInquirySellerRequest): ItemInquiryRuleState {
    return {
      found: { violations: [], notes: [] },
      asked: new AskedItems(request.items),
      forwarded: new ForwardedLocations(request.locations),
      packCodes: new PackCodes(),
    };
  },
  reply(state: ItemInquiryRuleState, reply: ItemInquirySellerReply): void {
    replyStatusCode(state.found, reply);
  },
  entry(state: ItemInquiryRuleState, _reply: ItemInquirySellerReply, entry: SellerItemResult, i: number): void {
    const found = state.found;
    const tally = state.asked.answer(entry);
    if (tally === undefined) {
      itemUnknownId(found, entry, i, state.asked);
      itemStatusCode(found, entry, i);
      return;
    }
    const asked = tally.asked;
    if (isRequestedPart(entry.status_code)) {
      itemRequestedPartMismatch(found, entry, i, asked);
      itemOriginalMismatch(found, entry, i, asked);
    }
    itemStatusCode(found, entry, i);
    if (isStandIn(entry.status_code)) {
      alternateOriginalPart(found, entry, i, asked);
      alternateOriginalMfr(found, entry, i, asked);
    }
  },
  location(
    state: ItemInquiryRuleState,
    _reply: ItemInquirySellerReply,
    entry: SellerItemResult,
    i: number,
    location: SellerItemLocation,
    j: number,
  ): void {
    const found = state.found;
    const forwarded = state.forwarded;
    const at = forwarded.indexOf(location.id, j);
    if (at === -1) locationNotForwarded(found, entry, i, j, forwarded);
    if (forwarded.repeatsInEntry(i, entry.locations, j, at)) locationDuplicate(found, entry, i, j);
    locationTypeCode(found, entry, i, j, location);
    locationPackCode(found, entry, i, j, location, state.packCodes);
  },
  end(state: ItemInquiryRuleState, reply: ItemInquirySellerReply): void {
    const success = reply.status_code === OverallStatus.Success;
    for (const tally of state.asked.tallies()) {
      if (success) itemIdEcho(state.found, tally);
      itemRequestedPartMissing(state.found, tally);
      itemRequestedPartDuplicate(state.found, tally);
    }
  },
};

/** Status 2 (alternate), 3 (superseded) or 4 (equivalent): the entry stands in for the requested part. */
const isStandIn = (status: number): boolean =>
  status === ItemStatus.Alternate || status === ItemStatus.Superseded || status === ItemStatus.Equivalent;

/** reply.status-code: the overall status_code is one of the common overall codes. */
function replyStatusCode(found: RuleCheck, reply: ItemInquirySellerReply): void {
  if (OVERALL_STATUSES.has(reply.status_code)) return;
  found.violations.push(
    violation('reply.status-code', '/status_code', `status_code ${reply.status_code} is not an overall status code`, {
      found: reply.status_code,
    }),
  );
}

/**
 * item.id-echo: every requested item id comes back in a successful reply (status_code 2000). A
 * seller answering with an error status (invalid account, offline…) may return no items.
 */
function itemIdEcho(found: RuleCheck, { asked, entries }: Tally): void {
  if (entries > 0) return;
  found.violations.push(
    violation('item.id-echo', '/items', `requested item id '${asked.id}' is missing from the reply`, {
      id: asked.id,
      expected: asked.id,
    }),
  );
}

/** item.unknown-id: no item id comes back that was not requested. */
function itemUnknownId(found: RuleCheck, entry: SellerItemResult, i: number, asked: AskedItems): void {
  found.violations.push(
    violation('item.unknown-id', `/items/${i}/id`, `item id '${entry.id}' was not requested`, {
      id: entry.id,
      found: entry.id,
      expected: asked.ids(),
    }),
  );
}

/**
 * item.requested-part-missing: a requested id that comes back has an entry for the requested
 * part itself (status 0 or 1), not only stand-ins. An id with no entry at all is item.id-echo.
 */
function itemRequestedPartMissing(found: RuleCheck, { asked, entries, requestedPart }: Tally): void {
  if (entries === 0 || requestedPart > 0) return;
  found.violations.push(
    violation(
      'item.requested-part-missing',
      '/items',
      `id '${asked.id}' has no entry for the requested part itself (status 0 or 1)`,
      { id: asked.id },
    ),
  );
}

/** item.requested-part-duplicate: a requested id has only one entry for the requested part itself. */
function itemRequestedPartDuplicate(found: RuleCheck, { asked, requestedPart }: Tally): void {
  if (requestedPart <= 1) return;
  found.violations.push(
    violation(
      'item.requested-part-duplicate',
      '/items',
      `id '${asked.id}' has ${requestedPart} entries for the requested part itself`,
      { id: asked.id, expected: 1, found: requestedPart },
    ),
  );
}

/** item.requested-part-mismatch: the status 0/1 entry carries the requested mfr_code and part_number. */
function itemRequestedPartMismatch(found: RuleCheck, entry: SellerItemResult, i: number, asked: RequestedItem): void {
  if (entry.mfr_code === asked.mfr_code && entry.part_number === asked.part_number) return;
  found.violations.push(
    violation(
      'item.requested-part-mismatch',
      `/items/${i}`,
      `status ${entry.status_code} entry for id '${entry.id}' is ${entry.mfr_code} ${entry.part_number}, but ${asked.mfr_code} ${asked.part_number} was requested`,
      {
        id: entry.id,
        expected: { mfr_code: asked.mfr_code, part_number: asked.part_number },
        found: { mfr_code: entry.mfr_code, part_number: entry.part_number },
      },
    ),
  );
}

/**
 * item.original-mismatch: a status 0/1 entry carries no original_part/original_mfr, or the
 * requested ones. The requested part may restate what was asked, but nothing else.
 */
function itemOriginalMismatch(found: RuleCheck, entry: SellerItemResult, i: number, asked: RequestedItem): void {
  const { original_part, original_mfr } = entry;
  if (original_part !== undefined && original_part !== asked.part_number)
    found.violations.push(restatedViolation(entry, i, 'original_part', asked.part_number));
  if (original_mfr !== undefined && original_mfr !== asked.mfr_code)
    found.violations.push(restatedViolation(entry, i, 'original_mfr', asked.mfr_code));
}

/** The finding of item.original-mismatch: the requested part restates something else than was asked. */
function restatedViolation(
  entry: SellerItemResult,
  i: number,
  field: 'original_part' | 'original_mfr',
  expected: string,
) {
  return violation(
    'item.original-mismatch',
    `/items/${i}/${field}`,
    `status ${entry.status_code} entry for id '${entry.id}' carries ${field} '${entry[field]}', not the requested '${expected}'`,
    { id: entry.id, expected, found: entry[field] },
  );
}

/** item.status-code: the item status_code is one of 0-4. */
function itemStatusCode(found: RuleCheck, entry: SellerItemResult, i: number): void {
  if (ITEM_STATUSES.has(entry.status_code)) return;
  found.violations.push(
    violation(
      'item.status-code',
      `/items/${i}/status_code`,
      `item status_code ${entry.status_code} is not one of 0-4`,
      {
        id: entry.id,
        found: entry.status_code,
      },
    ),
  );
}

/**
 * alternate.original-part: an alternate, superseded or equivalent entry carries original_part
 * equal to the requested part_number.
 */
function alternateOriginalPart(found: RuleCheck, entry: SellerItemResult, i: number, asked: RequestedItem): void {
  if (entry.original_part === asked.part_number) return;
  found.violations.push(standInViolation('part', entry, i, entry.original_part, asked.part_number));
}

/**
 * alternate.original-mfr: an alternate, superseded or equivalent entry carries original_mfr
 * equal to the requested mfr_code.
 */
function alternateOriginalMfr(found: RuleCheck, entry: SellerItemResult, i: number, asked: RequestedItem): void {
  if (entry.original_mfr === asked.mfr_code) return;
  found.violations.push(standInViolation('mfr', entry, i, entry.original_mfr, asked.mfr_code));
}

/** The finding of the two alternate.original-* rules: a stand-in that does not say what it stands in for. */
function standInViolation(
  what: 'part' | 'mfr',
  entry: SellerItemResult,
  i: number,
  given: string | undefined,
  expected: string,
) {
  const field = `original_${what}`;
  const requested = what === 'part' ? 'part_number' : 'mfr_code';
  return violation(
    `alternate.original-${what}`,
    `/items/${i}/${field}`,
    given === undefined
      ? `status ${entry.status_code} entry for id '${entry.id}' has no ${field}`
      : `${field} '${given}' differs from the requested ${requested} '${expected}'`,
    { id: entry.id, expected, found: given },
  );
}

/** location.not-forwarded: every location in the reply was forwarded to the seller. */
function locationNotForwarded(
  found: RuleCheck,
  entry: SellerItemResult,
  i: number,
  j: number,
  forwarded: ForwardedLocations,
): void {
  const id = entry.locations[j].id;
  found.violations.push(
    violation('location.not-forwarded', `/items/${i}/locations/${j}/id`, `location '${id}' was not forwarded`, {
      id: entry.id,
      expected: forwarded.ids,
      found: id,
    }),
  );
}

/** location.duplicate: a location appears at most once per item entry. */
function locationDuplicate(found: RuleCheck, entry: SellerItemResult, i: number, j: number): void {
  const id = entry.locations[j].id;
  const first = entry.locations.findIndex((l: SellerItemLocation) => l.id === id);
  found.violations.push(
    violation(
      'location.duplicate',
      `/items/${i}/locations/${j}/id`,
      `location '${id}' appears twice for this entry (also at /items/${i}/locations/${first})`,
      { id: entry.id, found: id },
    ),
  );
}

/** location.type-code: a location's type, when given, is 1 (store) or 2 (warehouse). */
function locationTypeCode(
  found: RuleCheck,
  entry: SellerItemResult,
  i: number,
  j: number,
  { type }: SellerItemLocation,
): void {
  if (type === undefined || LOCATION_TYPES.has(type)) return;
  found.violations.push(
    violation(
      'location.type-code',
      `/items/${i}/locations/${j}/type`,
      `location type ${type} is not 1 (store) or 2 (warehouse)`,
      { id: entry.id, found: type },
    ),
  );
}

/** location.pack-code: the pack code is one of the common list. A note only: sellers have their own. */
function locationPackCode(
  found: RuleCheck,
  entry: SellerItemResult,
  i: number,
  j: number,
  { pack_code }: SellerItemLocation,
  packCodes: PackCodes,
): void {
  if (packCodes.isCommon(pack_code)) return;
  found.notes.push(
    violation(
      'location.pack-code',
      `/items/${i}/locations/${j}/pack_code`,
      `pack code '${pack_code}' is not in the common list`,
      { id: entry.id, found: pack_code },
    ),
  );
}
