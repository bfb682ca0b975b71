import type { Operation } from '../schemas/index';
import type { RuleName } from './violation';

// Which reply rules each forwarded operation's check can break, and `reply.schema`: the reply
// does not have the contract's shape (so its rules were not run). Notes (location.pack-code) are
// not breaches and are not listed. Closed lists, so what is keyed on them (production counts and
// their Prometheus labels, exploration's coverage) stays bounded whatever a seller sends.

/** Schema errors are reported under this name, beside the reply rules. */
export const SCHEMA_RULE = 'reply.schema';
export type RuleOrSchema = RuleName | typeof SCHEMA_RULE;

export const REPLY_RULES_OF = {
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
} as const satisfies Record<Exclude<Operation, 'users-create'>, readonly RuleOrSchema[]>;
