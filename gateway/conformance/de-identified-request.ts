import type { ForwardedOperation } from '../../contracts/index';

// What a sample keeps of a forwarded request: all the seller needs to answer it again, less
// what identifies the buyer. The buyer user reaches the seller only as terminal_id (their
// terminal pin); an order adds a person's name and address (ship_to) and free text the buyer
// typed (comment). Accounts and locations stay: they are the member's own identifiers of its
// customer (the seller already holds them), and the rules compare them (invoice.account,
// location.not-forwarded). Every field removed is optional in the forwarded request, so what
// is left is still a request the seller must answer.

export const REMOVED_FIELDS: Record<ForwardedOperation, readonly string[]> = {
  'item-inquiry': ['terminal_id'],
  'place-order': ['terminal_id', 'ship_to', 'comment'],
  invoice: ['terminal_id'],
  statement: ['terminal_id'],
};

/** JSON pointers of every field removed, for the replay file's `removed`. */
export const REMOVED_POINTERS = [
  ...new Set(Object.entries(REMOVED_FIELDS).flatMap(([operation, fields]) => fields.map((f) => `${operation}:/${f}`))),
];

export function deIdentifiedRequest(operation: ForwardedOperation, forwarded: object): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...(forwarded as Record<string, unknown>) };
  for (const field of REMOVED_FIELDS[operation]) delete copy[field];
  return copy;
}
