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

const ITEM_STATUSES = new Set<number>(Object.values(ItemStatus));
const LOCATION_TYPES = new Set<number>(Object.values(LocationType));
const OVERALL_STATUSES = new Set<number>(Object.values(OverallStatus));

/**
 * Cross-field rules of an item inquiry reply against the request that was forwarded.
 * Assumes the reply passed the schema (shape); checks what a schema cannot express.
 * Code-list membership is checked here too, so the rules stand alone.
 *
 * Each rule is the function named after its code (`item.unknown-id` → `itemUnknownId`), called
 * in the order of the vendor's reports page (docs/vendor/reports.md, "The reply rules"), in one pass
 * over the reply: the whole reply first, then each entry and its locations, then what is missing,
 * which only the end of the pass can tell. Findings come out in that order.
 */
export function checkItemInquiryReply(request: ItemInquirySellerRequest, reply: ItemInquirySellerReply): RuleCheck {
  const steps = itemInquiryRuleSteps;
  const state = steps.start(request);

  // The whole reply, first, as in the guide.
  steps.reply(state, reply);

  // Each entry, and each of its locations.
  const entries = reply.items;
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i];
    steps.entry(state, reply, entry, i);
    const locations = entry.locations;
    for (let j = 0; j < locations.length; j++) steps.location(state, reply, entry, i, locations[j], j);
  }

  // What is missing, per requested id.
  steps.end(state, reply);
  return state.found;
}

/** What the rules carry from one step to the next over one reply. */
export interface ItemInquiryRuleState {
  found: RuleCheck;
  asked: AskedItems;
  forwarded: ForwardedLocations;
  packCodes: PackCodes;
}

/**
 * The rules by the node they read, in the order checkItemInquiryReply calls them: `reply` once
 * (its status_code), `entry` per entry (its own fields), `location` per location of that entry,
 * `end` once (what is missing). The fused check (contracts/fused-reply-check.ts) calls the same
 * steps from inside its one walk of the reply; each reads only fields of the node it is given
 * and of nodes already passed.
 */
export const itemInquiryRuleSteps = {
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
    itemUnknownId(found, entry, i, state.asked, tally);
    if (tally !== undefined && isRequestedPart(entry.status_code)) {
      itemRequestedPartMismatch(found, entry, i, tally.asked);
      itemOriginalMismatch(found, entry, i, tally.asked);
    }
    itemStatusCode(found, entry, i);
    if (tally !== undefined && isStandIn(entry.status_code)) {
      alternateOriginalPart(found, entry, i, tally.asked);
      alternateOriginalMfr(found, entry, i, tally.asked);
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
    locationNotForwarded(found, entry, i, j, forwarded, at);
    locationDuplicate(found, entry, i, j, forwarded.repeatsInEntry(i, entry.locations, j, at));
    locationTypeCode(found, entry, i, j, location);
    locationPackCode(found, entry, i, j, location, state.packCodes);
  },
  end(state: ItemInquiryRuleState, reply: ItemInquirySellerReply): void {
    const success = reply.status_code === OverallStatus.Success;
    for (const tally of state.asked.tallies()) {
      itemIdEcho(state.found, tally, success);
      itemRequestedPartMissing(state.found, tally);
      itemRequestedPartDuplicate(state.found, tally);
    }
  },
};

/** Status 2 (alternate), 3 (superseded) or 4 (equivalent): the entry stands in for the requested part. */
const isStandIn = (status: number): boolean =>
  status === ItemStatus.Alternate || status === ItemStatus.Superseded || status === ItemStatus.Equivalent;

// Each rule below is its test, then a call that reports the finding when it is broken. Why the
// report is a function of its own, taking the rule's first arguments: the test alone stays small
// enough for V8 to always inline it into the loops above; with the message in it, it would not be.

// item.id-echo: a seller answering with an error status (invalid account, offline…) may return no items.
function itemIdEcho(found: RuleCheck, tally: Tally, success: boolean) {
  if (success && tally.entries === 0) reportIdEcho(found, tally);
}
function reportIdEcho(found: RuleCheck, { asked }: Tally) {
  found.violations.push(
    violation('item.id-echo', '/items', `requested item id '${asked.id}' is missing from the reply`, {
      id: asked.id,
      expected: asked.id,
    }),
  );
}

// item.unknown-id
function itemUnknownId(
  found: RuleCheck,
  entry: SellerItemResult,
  i: number,
  asked: AskedItems,
  tally: Tally | undefined,
) {
  if (tally === undefined) reportUnknownId(found, entry, i, asked);
}
function reportUnknownId(found: RuleCheck, entry: SellerItemResult, i: number, asked: AskedItems) {
  found.violations.push(
    violation('item.unknown-id', `/items/${i}/id`, `item id '${entry.id}' was not requested`, {
      id: entry.id,
      found: entry.id,
      expected: asked.ids(),
    }),
  );
}

// item.requested-part-missing: an id answered only by stand-ins (no entry at all is item.id-echo).
function itemRequestedPartMissing(found: RuleCheck, tally: Tally) {
  if (tally.entries > 0 && tally.requestedPart === 0) reportRequestedPartMissing(found, tally);
}
function reportRequestedPartMissing(found: RuleCheck, { asked }: Tally) {
  found.violations.push(
    violation(
      'item.requested-part-missing',
      '/items',
      `id '${asked.id}' has no entry for the requested part itself (status 0 or 1)`,
      { id: asked.id },
    ),
  );
}

// item.requested-part-duplicate
function itemRequestedPartDuplicate(found: RuleCheck, tally: Tally) {
  if (tally.requestedPart > 1) reportRequestedPartDuplicate(found, tally);
}
function reportRequestedPartDuplicate(found: RuleCheck, { asked, requestedPart }: Tally) {
  found.violations.push(
    violation(
      'item.requested-part-duplicate',
      '/items',
      `id '${asked.id}' has ${requestedPart} entries for the requested part itself`,
      {
        id: asked.id,
        expected: 1,
        found: requestedPart,
      },
    ),
  );
}

// item.requested-part-mismatch
function itemRequestedPartMismatch(found: RuleCheck, entry: SellerItemResult, i: number, asked: RequestedItem) {
  if (entry.mfr_code !== asked.mfr_code || entry.part_number !== asked.part_number)
    reportRequestedPartMismatch(found, entry, i, asked);
}
function reportRequestedPartMismatch(found: RuleCheck, entry: SellerItemResult, i: number, asked: RequestedItem) {
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

// item.original-mismatch: the requested part may restate what was asked, but nothing else.
function itemOriginalMismatch(found: RuleCheck, entry: SellerItemResult, i: number, asked: RequestedItem) {
  if (entry.original_part !== undefined && entry.original_part !== asked.part_number)
    reportOriginalMismatch(found, entry, i, 'original_part', asked.part_number);
  if (entry.original_mfr !== undefined && entry.original_mfr !== asked.mfr_code)
    reportOriginalMismatch(found, entry, i, 'original_mfr', asked.mfr_code);
}
function reportOriginalMismatch(
  found: RuleCheck,
  entry: SellerItemResult,
  i: number,
  field: 'original_part' | 'original_mfr',
  expected: string,
) {
  found.violations.push(
    violation(
      'item.original-mismatch',
      `/items/${i}/${field}`,
      `status ${entry.status_code} entry for id '${entry.id}' carries ${field} '${entry[field]}', not the requested '${expected}'`,
      { id: entry.id, expected, found: entry[field] },
    ),
  );
}

// item.status-code
function itemStatusCode(found: RuleCheck, entry: SellerItemResult, i: number) {
  if (!ITEM_STATUSES.has(entry.status_code)) reportStatusCode(found, entry, i);
}
function reportStatusCode(found: RuleCheck, entry: SellerItemResult, i: number) {
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

// alternate.original-part and alternate.original-mfr: a stand-in says which requested part it
// stands in for. The tests stay apart and small (they run on every alternate); the report, run
// only when one fails, is shared.
function alternateOriginalPart(found: RuleCheck, entry: SellerItemResult, i: number, asked: RequestedItem) {
  if (entry.original_part !== asked.part_number)
    reportOriginal(found, entry, i, 'part', entry.original_part, asked.part_number);
}
function alternateOriginalMfr(found: RuleCheck, entry: SellerItemResult, i: number, asked: RequestedItem) {
  if (entry.original_mfr !== asked.mfr_code) reportOriginal(found, entry, i, 'mfr', entry.original_mfr, asked.mfr_code);
}
function reportOriginal(
  found: RuleCheck,
  entry: SellerItemResult,
  i: number,
  what: 'part' | 'mfr',
  given: string | undefined,
  expected: string,
) {
  const field = `original_${what}`;
  const requested = what === 'part' ? 'part_number' : 'mfr_code';
  found.violations.push(
    violation(
      `alternate.original-${what}`,
      `/items/${i}/${field}`,
      given === undefined
        ? `status ${entry.status_code} entry for id '${entry.id}' has no ${field}`
        : `${field} '${given}' differs from the requested ${requested} '${expected}'`,
      { id: entry.id, expected, found: given },
    ),
  );
}

// location.not-forwarded (`at`: the location's index among the forwarded ones, -1 when absent)
function locationNotForwarded(
  found: RuleCheck,
  entry: SellerItemResult,
  i: number,
  j: number,
  forwarded: ForwardedLocations,
  at: number,
) {
  if (at === -1) reportNotForwarded(found, entry, i, j, forwarded);
}
function reportNotForwarded(
  found: RuleCheck,
  entry: SellerItemResult,
  i: number,
  j: number,
  forwarded: ForwardedLocations,
) {
  const id = entry.locations[j].id;
  found.violations.push(
    violation('location.not-forwarded', `/items/${i}/locations/${j}/id`, `location '${id}' was not forwarded`, {
      id: entry.id,
      expected: forwarded.ids,
      found: id,
    }),
  );
}

// location.duplicate (`repeats`: whether an earlier location of the entry has the same id)
function locationDuplicate(found: RuleCheck, entry: SellerItemResult, i: number, j: number, repeats: boolean) {
  if (repeats) reportDuplicate(found, entry, i, j);
}
function reportDuplicate(found: RuleCheck, entry: SellerItemResult, i: number, j: number) {
  const id = entry.locations[j].id;
  const first = entry.locations.findIndex((l: SellerItemLocation) => l.id === id);
  found.violations.push(
    violation(
      'location.duplicate',
      `/items/${i}/locations/${j}/id`,
      `location '${id}' appears twice for this entry (also at /items/${i}/locations/${first})`,
      {
        id: entry.id,
        found: id,
      },
    ),
  );
}

// location.type-code
function locationTypeCode(
  found: RuleCheck,
  entry: SellerItemResult,
  i: number,
  j: number,
  location: SellerItemLocation,
) {
  if (location.type !== undefined && !isLocationType(location.type)) reportTypeCode(found, entry, i, j, location);
}
// Why the comparisons first: they spare a Set look-up on the two codes every reply carries.
const isLocationType = (type: number) =>
  type === LocationType.Store || type === LocationType.Warehouse || LOCATION_TYPES.has(type);
function reportTypeCode(found: RuleCheck, entry: SellerItemResult, i: number, j: number, { type }: SellerItemLocation) {
  found.violations.push(
    violation(
      'location.type-code',
      `/items/${i}/locations/${j}/type`,
      `location type ${type} is not 1 (store) or 2 (warehouse)`,
      {
        id: entry.id,
        found: type,
      },
    ),
  );
}

// location.pack-code: a note only, sellers have their own pack codes.
function locationPackCode(
  found: RuleCheck,
  entry: SellerItemResult,
  i: number,
  j: number,
  location: SellerItemLocation,
  packCodes: PackCodes,
) {
  if (!packCodes.isCommon(location.pack_code)) reportPackCode(found, entry, i, j, location);
}
function reportPackCode(
  found: RuleCheck,
  entry: SellerItemResult,
  i: number,
  j: number,
  { pack_code }: SellerItemLocation,
) {
  found.notes.push(
    violation(
      'location.pack-code',
      `/items/${i}/locations/${j}/pack_code`,
      `pack code '${pack_code}' is not in the common list`,
      {
        id: entry.id,
        found: pack_code,
      },
    ),
  );
}

// reply.status-code
function replyStatusCode(found: RuleCheck, reply: ItemInquirySellerReply) {
  if (!OVERALL_STATUSES.has(reply.status_code)) reportReplyStatusCode(found, reply);
}
function reportReplyStatusCode(found: RuleCheck, reply: ItemInquirySellerReply) {
  found.violations.push(
    violation('reply.status-code', '/status_code', `status_code ${reply.status_code} is not an overall status code`, {
      found: reply.status_code,
    }),
  );
}
