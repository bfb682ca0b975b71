import type { ForwardedOperation, ReplyCheck } from '../../contracts/index';
import { isCountedRule, SCHEMA_RULE, type ConformanceRule } from './conformance-rules';

// One seller reply as the gateway judged it, in its one pass (operations/forward.ts): what
// production conformance counts. Judged means the seller answered with a JSON 2xx body and
// the body was checked; a timeout, an HTTP error or a body that is not JSON is no reply to
// judge (gateway_seller_call_duration_seconds{outcome} counts those).

export interface ReplyJudgement {
  memberId: string;
  operation: ForwardedOperation;
  /** The forwarded request as sent. */
  request: object;
  /** The reply body as read, when the seller client kept it. */
  replyText: string | undefined;
  /** The parsed reply (its JSON stands in for replyText when that is absent). */
  reply: unknown;
  check: ReplyCheck;
}

const NONE: readonly ConformanceRule[] = [];
const SCHEMA: readonly ConformanceRule[] = [SCHEMA_RULE];

/** The rules a judged reply broke, each once, in the order found: `reply.schema` alone when the shape is wrong. */
export function brokenRules(operation: ForwardedOperation, check: ReplyCheck): readonly ConformanceRule[] {
  if (check.errors.length > 0) return SCHEMA;
  if (check.violations.length === 0) return NONE;
  const rules: ConformanceRule[] = [];
  for (const v of check.violations) if (isCountedRule(operation, v.rule) && !rules.includes(v.rule)) rules.push(v.rule);
  return rules;
}
