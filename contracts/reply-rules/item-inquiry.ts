import { ItemStatus, LocationType, OverallStatus, PACK_CODES } from '../codes';
import type { ItemInquirySellerReply, ItemInquirySellerRequest, RequestedItem } from '../schemas/item-inquiry';
import { type RuleCheck, type Violation, violation } from './violation';

const ITEM_STATUSES = new Set<number>(Object.values(ItemStatus));
const LOCATION_TYPES = new Set<number>(Object.values(LocationType));
const OVERALL_STATUSES = new Set<number>(Object.values(OverallStatus));
const KNOWN_PACK_CODES = new Set<string>(PACK_CODES);

// This runs on every seller reply the gateway relays (scripts/bench-contracts.ts): the
// valid path allocates only the two look-up tables, and builds no path strings; messages
// and paths are built only once something is wrong.

/** Entries per requested id: how many for the requested part itself (status 0/1), how many in all. */
interface Tally {
  asked: RequestedItem;
  requestedPart: number;
  entries: number;
}

/**
 * Cross-field rules of an item inquiry reply against the request that was forwarded.
 * Assumes the reply passed the schema (shape); checks what a schema cannot express.
 * Code-list membership is checked here too, so the rules stand alone.
 */
export function checkItemInquiryReply(request: ItemInquirySellerRequest, reply: ItemInquirySellerReply): RuleCheck {
  const violations: Violation[] = [];
  const notes: Violation[] = [];

  const success = reply.status_code === OverallStatus.Success;
  if (!OVERALL_STATUSES.has(reply.status_code)) {
    violations.push(
      violation('reply.status-code', '/status_code', `status_code ${reply.status_code} is not an overall status code`, { found: reply.status_code }),
    );
  }

  const tally = new Map<string, Tally>();
  for (const asked of request.items) tally.set(asked.id, { asked, requestedPart: 0, entries: 0 });
  const forwardedIds = request.locations.map((l) => l.id);
  // Index of each forwarded location; a location is a duplicate within entry i when its
  // mark already says i (marks start at 0, entries count from 1).
  const forwardedAt = new Map<string, number>();
  forwardedIds.forEach((id, n) => forwardedAt.set(id, n));
  const marks = new Int32Array(forwardedIds.length);
  // A freshly parsed reply's strings have no hash yet, so each Map/Set look-up hashes its
  // key. Entries of one id come together and sellers answer a handful of locations with a
  // common pack code: a scan of a few ids, or comparing with the previous answer, spares
  // most look-ups.
  const fewLocations = forwardedIds.length <= 8;
  let lastId: string | undefined;
  let lastTally: Tally | undefined;
  let lastPackCode = '';

  const items = reply.items;
  for (let i = 0; i < items.length; i++) {
    const entry = items[i];
    const t = entry.id === lastId ? lastTally : tally.get(entry.id);
    lastId = entry.id;
    lastTally = t;
    const status = entry.status_code;
    if (t === undefined) {
      violations.push(
        violation('item.unknown-id', `/items/${i}/id`, `item id '${entry.id}' was not requested`, {
          id: entry.id,
          found: entry.id,
          expected: [...tally.keys()],
        }),
      );
    } else {
      t.entries++;
    }
    if (!ITEM_STATUSES.has(status)) {
      violations.push(
        violation('item.status-code', `/items/${i}/status_code`, `item status_code ${status} is not one of 0-4`, { id: entry.id, found: status }),
      );
    } else if (t !== undefined) {
      const asked = t.asked;
      if (status === ItemStatus.NotFound || status === ItemStatus.Found) {
        t.requestedPart++;
        if (entry.mfr_code !== asked.mfr_code || entry.part_number !== asked.part_number) {
          violations.push(
            violation(
              'item.requested-part-mismatch',
              `/items/${i}`,
              `status ${status} entry for id '${entry.id}' is ${entry.mfr_code} ${entry.part_number}, but ${asked.mfr_code} ${asked.part_number} was requested`,
              {
                id: entry.id,
                expected: { mfr_code: asked.mfr_code, part_number: asked.part_number },
                found: { mfr_code: entry.mfr_code, part_number: entry.part_number },
              },
            ),
          );
        }
        // The requested part may restate what was asked, but nothing else.
        if (entry.original_part !== undefined && entry.original_part !== asked.part_number) {
          violations.push(
            violation(
              'item.original-mismatch',
              `/items/${i}/original_part`,
              `status ${status} entry for id '${entry.id}' carries original_part '${entry.original_part}', not the requested '${asked.part_number}'`,
              { id: entry.id, expected: asked.part_number, found: entry.original_part },
            ),
          );
        }
        if (entry.original_mfr !== undefined && entry.original_mfr !== asked.mfr_code) {
          violations.push(
            violation(
              'item.original-mismatch',
              `/items/${i}/original_mfr`,
              `status ${status} entry for id '${entry.id}' carries original_mfr '${entry.original_mfr}', not the requested '${asked.mfr_code}'`,
              { id: entry.id, expected: asked.mfr_code, found: entry.original_mfr },
            ),
          );
        }
      } else {
        // Alternate, superseded, equivalent: must say which requested part they stand in for.
        if (entry.original_part !== asked.part_number) {
          violations.push(
            violation(
              'alternate.original-part',
              `/items/${i}/original_part`,
              entry.original_part === undefined
                ? `status ${status} entry for id '${entry.id}' has no original_part`
                : `original_part '${entry.original_part}' differs from the requested part_number '${asked.part_number}'`,
              { id: entry.id, expected: asked.part_number, found: entry.original_part },
            ),
          );
        }
        if (entry.original_mfr !== asked.mfr_code) {
          violations.push(
            violation(
              'alternate.original-mfr',
              `/items/${i}/original_mfr`,
              entry.original_mfr === undefined
                ? `status ${status} entry for id '${entry.id}' has no original_mfr`
                : `original_mfr '${entry.original_mfr}' differs from the requested mfr_code '${asked.mfr_code}'`,
              { id: entry.id, expected: asked.mfr_code, found: entry.original_mfr },
            ),
          );
        }
      }
    }

    const locations = entry.locations;
    for (let j = 0; j < locations.length; j++) {
      const location = locations[j];
      const id = location.id;
      // Sellers answer the locations in the order they were forwarded: try that place first.
      const at = forwardedIds[j] === id ? j : fewLocations ? forwardedIds.indexOf(id) : (forwardedAt.get(id) ?? -1);
      if (at === -1) {
        violations.push(
          violation('location.not-forwarded', `/items/${i}/locations/${j}/id`, `location '${id}' was not forwarded`, {
            id: entry.id,
            expected: forwardedIds,
            found: id,
          }),
        );
        for (let k = 0; k < j; k++) {
          if (locations[k].id === id) {
            violations.push(
              violation(
                'location.duplicate',
                `/items/${i}/locations/${j}/id`,
                `location '${id}' appears twice for this entry (also at /items/${i}/locations/${k})`,
                { id: entry.id, found: id },
              ),
            );
            break;
          }
        }
      } else if (marks[at] === i + 1) {
        const k = locations.findIndex((l) => l.id === id);
        violations.push(
          violation(
            'location.duplicate',
            `/items/${i}/locations/${j}/id`,
            `location '${id}' appears twice for this entry (also at /items/${i}/locations/${k})`,
            { id: entry.id, found: id },
          ),
        );
      } else {
        marks[at] = i + 1;
      }
      if (
        location.type !== undefined &&
        location.type !== LocationType.Store &&
        location.type !== LocationType.Warehouse &&
        !LOCATION_TYPES.has(location.type)
      ) {
        violations.push(
          violation('location.type-code', `/items/${i}/locations/${j}/type`, `location type ${location.type} is not 1 (store) or 2 (warehouse)`, {
            id: entry.id,
            found: location.type,
          }),
        );
      }
      if (location.pack_code === lastPackCode) {
        // same as the previous location's, already known to be in the list
      } else if (KNOWN_PACK_CODES.has(location.pack_code)) {
        lastPackCode = location.pack_code;
      } else {
        notes.push(
          violation('location.pack-code', `/items/${i}/locations/${j}/pack_code`, `pack code '${location.pack_code}' is not in the common list`, {
            id: entry.id,
            found: location.pack_code,
          }),
        );
      }
    }
  }

  for (const [id, t] of tally) {
    if (t.entries === 0) {
      // A seller answering with an error status (invalid account, offline…) may return no items.
      if (success) violations.push(violation('item.id-echo', '/items', `requested item id '${id}' is missing from the reply`, { id, expected: id }));
    } else if (t.requestedPart === 0) {
      violations.push(violation('item.requested-part-missing', '/items', `id '${id}' has no entry for the requested part itself (status 0 or 1)`, { id }));
    } else if (t.requestedPart > 1) {
      violations.push(
        violation('item.requested-part-duplicate', '/items', `id '${id}' has ${t.requestedPart} entries for the requested part itself`, {
          id,
          expected: 1,
          found: t.requestedPart,
        }),
      );
    }
  }
  return { violations, notes };
}
