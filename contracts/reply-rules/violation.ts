/** One broken reply rule, precise enough for a vendor to fix without asking. */
export interface Violation {
  /** Stable rule name, e.g. `item.id-echo`; tests, reports and dashboards key on it. */
  rule: string;
  /** JSON pointer into the seller reply (or `/items` when something is missing from it). */
  path: string;
  message: string;
  /** The item id concerned, when there is one. */
  id?: string;
  expected?: unknown;
  found?: unknown;
}

/** Rules whose breach is reported but does not reject the reply (e.g. a seller's own pack code). */
export interface RuleCheck {
  violations: Violation[];
  notes: Violation[];
}

/** Every rule name, with what it guards; the verification report and the docs read this. */
export const RULES = {
  'item.id-echo': 'Every requested item id comes back in the reply (when the overall status_code is 2000, success)',
  'item.unknown-id': 'No item id comes back that was not requested',
  'item.requested-part-missing': 'Each requested id has an entry for the requested part itself (status 0 or 1)',
  'item.requested-part-duplicate': 'Each requested id has only one entry for the requested part itself',
  'item.requested-part-mismatch': 'The status 0/1 entry carries the requested mfr_code and part_number',
  'item.original-mismatch': 'A status 0/1 entry carries no original_part/original_mfr, or the requested ones',
  'item.status-code': 'Item status_code is one of 0-4',
  'alternate.original-part':
    'Alternate, superseded and equivalent entries carry original_part equal to the requested part_number',
  'alternate.original-mfr':
    'Alternate, superseded and equivalent entries carry original_mfr equal to the requested mfr_code',
  'location.not-forwarded': 'Every location in the reply was forwarded to the seller',
  'location.duplicate': 'A location appears at most once per item entry',
  'location.type-code': 'Location type is 1 (store) or 2 (warehouse)',
  'location.pack-code': 'Pack code is one of the common list (a note only: sellers have their own)',
  'reply.status-code': 'Overall status_code is one of the common overall codes',
  'order.id-echo': 'Every ordered item id is answered (when the overall status_code is 2000, success)',
  'order.unknown-id': 'No item id is answered that was not ordered',
  'order.duplicate-id': 'Each ordered item id is answered once',
  'order.item-status': 'Item order status is 0 (failure), 1 (received) or 2 (backorder)',
  'invoice.date-range': 'Invoice dates lie within the requested range',
  'invoice.account': 'Invoices belong to the requested account',
  'invoice.number': 'Invoices carry the requested invoice number',
  'invoice.po-number': 'Invoices carry the requested PO number',
  'invoice.location': 'Invoices belong to the requested location',
  'invoice.part-number': 'Invoices contain a line for the requested part number',
  'statement.date-range': 'Statement dates lie within the requested range',
  'statement.account': 'Statements belong to the requested account',
  'statement.location': 'Statements belong to the requested location',
} as const;
export type RuleName = keyof typeof RULES;

export const violation = (
  rule: RuleName,
  path: string,
  message: string,
  extra: Omit<Violation, 'rule' | 'path' | 'message'> = {},
): Violation => ({
  rule,
  path,
  message,
  ...extra,
});
