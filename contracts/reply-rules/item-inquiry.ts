import { ItemStatus, LocationType, OverallStatus, PACK_CODES, RELATED_PART_STATUSES, REQUESTED_PART_STATUSES } from '../codes';
import type { ItemInquirySellerReply, ItemInquirySellerRequest, RequestedItem } from '../schemas/item-inquiry';
import { type RuleCheck, type Violation, violation } from './violation';

const ITEM_STATUSES = new Set<number>(Object.values(ItemStatus));
const LOCATION_TYPES = new Set<number>(Object.values(LocationType));
const OVERALL_STATUSES = new Set<number>(Object.values(OverallStatus));
const KNOWN_PACK_CODES = new Set<string>(PACK_CODES);

/**
 * Cross-field rules of an item inquiry reply against the request that was forwarded.
 * Assumes the reply passed the schema (shape); checks what a schema cannot express.
 */
export function checkItemInquiryReply(request: ItemInquirySellerRequest, reply: ItemInquirySellerReply): RuleCheck {
  const violations: Violation[] = [];
  const notes: Violation[] = [];

  if (!OVERALL_STATUSES.has(reply.status_code)) {
    violations.push(violation('reply.status-code', '/status_code', `status_code ${reply.status_code} is not an overall status code`, { found: reply.status_code }));
  }

  const requested = new Map<string, RequestedItem>();
  for (const item of request.items) requested.set(item.id, item);
  const forwarded = new Set(request.locations.map((l) => l.id));
  // Entries for the requested part itself (status 0/1), counted per id.
  const requestedEntries = new Map<string, number>();

  reply.items.forEach((entry, i) => {
    const at = `/items/${i}`;
    const asked = requested.get(entry.id);
    if (asked === undefined) {
      violations.push(violation('item.unknown-id', `${at}/id`, `item id '${entry.id}' was not requested`, { id: entry.id, found: entry.id, expected: [...requested.keys()] }));
    }
    const status = entry.status_code;
    if (!ITEM_STATUSES.has(status)) {
      violations.push(violation('item.status-code', `${at}/status_code`, `item status_code ${status} is not 0-4`, { id: entry.id, found: status }));
    } else if (asked !== undefined) {
      if (REQUESTED_PART_STATUSES.includes(status)) {
        requestedEntries.set(entry.id, (requestedEntries.get(entry.id) ?? 0) + 1);
        if (entry.mfr_code !== asked.mfr_code || entry.part_number !== asked.part_number) {
          violations.push(violation('item.requested-part-mismatch', at, `status ${status} entry for id '${entry.id}' is ${entry.mfr_code} ${entry.part_number}, but ${asked.mfr_code} ${asked.part_number} was requested`, {
            id: entry.id,
            expected: { mfr_code: asked.mfr_code, part_number: asked.part_number },
            found: { mfr_code: entry.mfr_code, part_number: entry.part_number },
          }));
        }
        if ((entry.original_part !== undefined && entry.original_part !== asked.part_number) || (entry.original_mfr !== undefined && entry.original_mfr !== asked.mfr_code)) {
          violations.push(violation('item.original-mismatch', at, `status ${status} entry for id '${entry.id}' carries original_part/original_mfr other than the requested part`, {
            id: entry.id,
            expected: { original_part: asked.part_number, original_mfr: asked.mfr_code },
            found: { original_part: entry.original_part, original_mfr: entry.original_mfr },
          }));
        }
      } else if (RELATED_PART_STATUSES.includes(status)) {
        if (entry.original_part !== asked.part_number) {
          violations.push(violation('alternate.original-part', `${at}/original_part`, entry.original_part === undefined ? `status ${status} entry for id '${entry.id}' has no original_part` : `original_part '${entry.original_part}' differs from the requested part_number '${asked.part_number}'`, { id: entry.id, expected: asked.part_number, found: entry.original_part }));
        }
        if (entry.original_mfr !== asked.mfr_code) {
          violations.push(violation('alternate.original-mfr', `${at}/original_mfr`, entry.original_mfr === undefined ? `status ${status} entry for id '${entry.id}' has no original_mfr` : `original_mfr '${entry.original_mfr}' differs from the requested mfr_code '${asked.mfr_code}'`, { id: entry.id, expected: asked.mfr_code, found: entry.original_mfr }));
        }
      }
    }

    const seen = new Set<string>();
    entry.locations.forEach((location, j) => {
      const lat = `${at}/locations/${j}`;
      if (!forwarded.has(location.id)) {
        violations.push(violation('location.not-forwarded', `${lat}/id`, `location '${location.id}' was not forwarded`, { id: entry.id, expected: [...forwarded], found: location.id }));
      }
      if (seen.has(location.id)) {
        violations.push(violation('location.duplicate', `${lat}/id`, `location '${location.id}' appears twice for this entry`, { id: entry.id, found: location.id }));
      }
      seen.add(location.id);
      if (location.type !== undefined && !LOCATION_TYPES.has(location.type)) {
        violations.push(violation('location.type-code', `${lat}/type`, `location type ${location.type} is not 1 (store) or 2 (warehouse)`, { id: entry.id, found: location.type }));
      }
      if (!KNOWN_PACK_CODES.has(location.pack_code)) {
        notes.push(violation('location.pack-code', `${lat}/pack_code`, `pack code '${location.pack_code}' is not in the common list`, { id: entry.id, found: location.pack_code }));
      }
    });
  });

  for (const id of requested.keys()) {
    const count = requestedEntries.get(id) ?? 0;
    const echoed = count > 0 || reply.items.some((entry) => entry.id === id);
    if (!echoed) {
      violations.push(violation('item.id-echo', '/items', `requested item id '${id}' is missing from the reply`, { id, expected: id }));
    } else if (count === 0) {
      violations.push(violation('item.requested-part-missing', '/items', `id '${id}' has no entry for the requested part itself (status 0 or 1)`, { id }));
    } else if (count > 1) {
      violations.push(violation('item.requested-part-duplicate', '/items', `id '${id}' has ${count} entries for the requested part itself`, { id, expected: 1, found: count }));
    }
  }
  return { violations, notes };
}
