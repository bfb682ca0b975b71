import type { ForwardedOperation, RuleName } from '../../contracts/index';

// The closed list of what production conformance counts per operation: the reply rules the
// operation's check can break, and `reply.schema` (the reply does not have the contract's
// shape; the rules were not run). Notes (location.pack-code) are allowed and not counted.
// Closed, so Prometheus' rule label stays bounded whatever a seller sends.

export const SCHEMA_RULE = 'reply.schema';
export type ConformanceRule = RuleName | typeof SCHEMA_RULE;

export const CONFORMANCE_RULES = {
  'item-inquiry': [
    SCHEMA_RULE,
    'reply.status-code',
    'item.id-echo',
    'item.unknown-id',
    'item.requested-part-missing',
    'item.requested-part-duplicate',
    'item.requested-part-mismatch',
    'item.original-mismatch',
    'item.status-code',
    'alternate.original-part',
    'alternate.original-mfr',
    'location.not-forwarded',
    'location.duplicate',
    'location.type-code',
  ],
  'place-order': [
    SCHEMA_RULE,
    'reply.status-code',
    'order.id-echo',
    'order.unknown-id',
    'order.duplicate-id',
    'order.item-status',
  ],
  invoice: [
    SCHEMA_RULE,
    'invoice.date-range',
    'invoice.account',
    'invoice.number',
    'invoice.po-number',
    'invoice.location',
    'invoice.part-number',
  ],
  statement: [SCHEMA_RULE, 'statement.date-range', 'statement.account', 'statement.location'],
} as const satisfies Record<ForwardedOperation, readonly ConformanceRule[]>;

export const FORWARDED_OPERATIONS = Object.keys(CONFORMANCE_RULES) as ForwardedOperation[];

/** A rule this operation can break (anything else a check reports is not counted: the label stays bounded). */
export const isCountedRule = (operation: ForwardedOperation, rule: string): rule is ConformanceRule =>
  (CONFORMANCE_RULES[operation] as readonly string[]).includes(rule);
