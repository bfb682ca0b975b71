import type { ForwardedOperation } from '../../contracts/index';
import { REPLY_RULES_OF, type RuleOrSchema } from '../../contracts/reply-rules/rules-by-operation';

// What production conformance counts per operation: the contract's closed list of the rules each
// operation's check can break, and `reply.schema`; so Prometheus' rule label stays bounded.

export { SCHEMA_RULE } from '../../contracts/reply-rules/rules-by-operation';
export type ConformanceRule = RuleOrSchema;

export const CONFORMANCE_RULES = REPLY_RULES_OF;

export const FORWARDED_OPERATIONS = Object.keys(CONFORMANCE_RULES) as ForwardedOperation[];

/** A rule this operation can break (anything else a check reports is not counted: the label stays bounded). */
export const isCountedRule = (operation: ForwardedOperation, rule: string): rule is ConformanceRule =>
  (CONFORMANCE_RULES[operation] as readonly string[]).includes(rule);
