import {
  ItemOrderStatus,
  ItemStatus,
  RELATED_PART_STATUSES,
  type ItemInquirySellerReply,
  type ItemInquirySellerRequest,
  type PlaceOrderSellerReply,
  type PlaceOrderSellerRequest,
  type SellerItemLocation,
  type Service,
} from '../contracts/index';
import type { FaultOf, ItemFault } from './faults';

// Contract violations on demand: each takes an honest reply and breaks exactly one reply
// rule of contracts/reply-rules (missing-field breaks the schema). The mock never breaks
// the contract unless told to; these are how it is told.

export const DEFAULT_MISSING_FIELD: Record<Service, string> = {
  item_inquiry: '/items/0/status_code',
  place_order: '/items/0/status_code',
  invoice: '/status',
  statement: '/status',
};

type Items = { id: string; part_number?: string }[];

/** The faults that break a reply rule or the schema: those on one item, and missing-field. */
export type ViolationFault = ItemFault | FaultOf<'missing-field'>;

function targetId(fault: ItemFault, items: Items): string {
  if (fault.id !== undefined) return fault.id;
  const byPart = fault.part_number === undefined ? undefined : items.find((i) => i.part_number === fault.part_number);
  return (byPart ?? items[0]).id;
}

function unusedId(taken: Items, base: string): string {
  let candidate = base;
  for (let n = 2; taken.some((i) => i.id === candidate); n++) candidate = `${base}-${n}`;
  return candidate;
}

/** Removes a field by JSON pointer; false when nothing is there. */
function dropField(target: unknown, pointer: string): boolean {
  const tokens = pointer
    .split('/')
    .slice(1)
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
  let node: unknown = target;
  for (const token of tokens.slice(0, -1)) {
    if (node === null || typeof node !== 'object') return false;
    node = (node as Record<string, unknown>)[token];
  }
  const last = tokens[tokens.length - 1];
  if (node === null || typeof node !== 'object' || !(last in node)) return false;
  if (Array.isArray(node)) node.splice(Number(last), 1);
  else delete (node as Record<string, unknown>)[last];
  return true;
}

function breakItemInquiry(
  fault: ItemFault,
  request: ItemInquirySellerRequest,
  reply: ItemInquirySellerReply,
): string | undefined {
  const id = targetId(fault, request.items);
  const asked = request.items.find((i) => i.id === id) ?? request.items[0];
  const own = reply.items.find((e) => e.id === id);
  switch (fault.kind) {
    case 'drop-id':
      reply.items = reply.items.filter((e) => e.id !== id);
      return undefined;
    case 'change-id':
      if (own === undefined) return `no entry with id '${id}' to change`;
      own.id = unusedId(request.items, `${id}-changed`);
      return undefined;
    case 'add-unknown-id': {
      const base = own ?? reply.items[0];
      const extra =
        base === undefined
          ? {
              id: '',
              mfr_code: asked.mfr_code,
              part_number: asked.part_number,
              status_code: ItemStatus.NotFound,
              locations: [],
            }
          : structuredClone(base);
      extra.id = unusedId(request.items, 'unrequested-id');
      reply.items.push(extra);
      return undefined;
    }
    case 'wrong-original-part':
    case 'wrong-original-mfr': {
      let related = reply.items.find((e) => e.id === id && RELATED_PART_STATUSES.includes(e.status_code));
      if (related === undefined) {
        // No alternate to spoil: add one, so the fault works for every request.
        related = {
          ...(own === undefined ? { locations: [] } : structuredClone(own)),
          id: asked.id,
          mfr_code: asked.mfr_code,
          part_number: `${asked.part_number}-ALT`,
          original_part: asked.part_number,
          original_mfr: asked.mfr_code,
          status_code: ItemStatus.Alternate,
        };
        reply.items.push(related);
      }
      if (fault.kind === 'wrong-original-part') related.original_part = `${asked.part_number}-WRONG`;
      else related.original_mfr = `${asked.mfr_code}-WRONG`;
      return undefined;
    }
    case 'extra-location': {
      const entry = own ?? reply.items[0];
      if (entry === undefined) return 'no entry to add a location to';
      const forwarded = request.locations.map((l) => ({ id: l.id }));
      const template: SellerItemLocation = entry.locations[0] ?? {
        id: '',
        cost: 1,
        list: 2,
        pack_code: 'EA',
        pack_quantity: 1,
        quantity_available: 1,
      };
      entry.locations.push({ ...template, id: unusedId(forwarded, 'L-NOT-FORWARDED') });
      return undefined;
    }
  }
}

function breakPlaceOrder(
  fault: ItemFault,
  request: PlaceOrderSellerRequest,
  reply: PlaceOrderSellerReply,
): string | undefined {
  const id = targetId(fault, request.items);
  switch (fault.kind) {
    case 'drop-id':
      reply.items = reply.items.filter((e) => e.id !== id);
      return undefined;
    case 'change-id': {
      const own = reply.items.find((e) => e.id === id);
      if (own === undefined) return `no entry with id '${id}' to change`;
      own.id = unusedId(request.items, `${id}-changed`);
      return undefined;
    }
    case 'add-unknown-id':
      reply.items.push({
        id: unusedId(request.items, 'unrequested-id'),
        status_code: ItemOrderStatus.Received,
        quantity_ordered: 1,
      });
      return undefined;
    default:
      return `${fault.kind} does not apply to place_order`;
  }
}

/**
 * Applies one violation fault to a freshly built reply (mutating it). Returns a note when
 * the fault found nothing to act on, for the journal.
 */
export function applyViolation(
  service: Service,
  fault: ViolationFault,
  request: unknown,
  reply: unknown,
): string | undefined {
  if (fault.kind === 'missing-field') {
    const field = fault.field ?? DEFAULT_MISSING_FIELD[service];
    return dropField(reply, field) ? undefined : `nothing at ${field} to drop`;
  }
  if (service === 'item_inquiry')
    return breakItemInquiry(fault, request as ItemInquirySellerRequest, reply as ItemInquirySellerReply);
  if (service === 'place_order')
    return breakPlaceOrder(fault, request as PlaceOrderSellerRequest, reply as PlaceOrderSellerReply);
  return `${fault.kind} does not apply to ${service}`;
}
