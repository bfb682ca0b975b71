import { REPLY_RULES, type Violation } from './reply-rules/index';
import type { Operation } from './schemas/index';
import { unstorableText } from './stored-text';
import { validators, type ValidationIssue } from './validator';

export type ForwardedOperation = Exclude<Operation, 'users-create'>;

export interface ReplyCheck {
  /** True when the reply has the contract's shape and breaks no rule. */
  ok: boolean;
  /** Schema errors (shape, types, formats, codes). When present, the rules were not run. */
  errors: ValidationIssue[];
  /** Broken reply rules. */
  violations: Violation[];
  /** Allowed but worth showing: extra fields, a seller's own pack codes. */
  notes: (ValidationIssue | Violation)[];
}

/**
 * Schema, then the cross-field rules: what the gateway enforces at run time, what the mock
 * seller is tested against, and what the vendor verification reports. One implementation.
 */
export function checkSellerReply(operation: ForwardedOperation, forwardedRequest: unknown, reply: unknown): ReplyCheck {
  const shape = validators[operation]['seller-reply'](reply);
  if (!shape.valid) return { ok: false, errors: shape.errors, violations: [], notes: shape.notes };
  // The order reply is stored whole, extra fields included: what jsonb cannot hold is a shape error.
  const unstorable = operation === 'place-order' ? unstorableText(reply) : undefined;
  if (unstorable) return { ok: false, errors: [unstorable], violations: [], notes: shape.notes };
  const rules = REPLY_RULES[operation](forwardedRequest as never, reply as never);
  return {
    ok: rules.violations.length === 0,
    errors: [],
    violations: rules.violations,
    notes: shape.notes.length === 0 ? rules.notes : [...shape.notes, ...rules.notes],
  };
}
