import type { ForwardedOperation, Violation } from '../../contracts/index';
import type { Member } from '../directory/directory';
import {
  type Detail,
  GatewayError,
  SellerDeclinedError,
  SellerAddressRefusedError,
  SellerNotReachedError,
  SellerRefusedError,
  SellerReplyError,
  SellerTimeoutError,
  SellerUnavailableError,
} from '../errors';
import type { SellerOutcome } from '../seller-client/seller-client.types';
import type { OperationDeps } from './operation-deps';

// Forwarding one request to one member's seller system and deciding what its answer is
// worth: a seller fault becomes the matching gateway error; a reply is checked against the
// schema and every reply rule before anything of it reaches the buyer.

export interface CheckedReply<T> {
  member: Member;
  reply: T;
  /** Broken rules passed on because the member is lenient. */
  warnings: Violation[];
}

/** Lenient members are named in config or marked so in the directory (members.reply_mode). */
export function isLenient(deps: OperationDeps, member: Member): boolean {
  return (
    (member as Member & { replyMode?: string }).replyMode === 'lenient' ||
    deps.config.lenientMembers.includes(member.id)
  );
}

/** The gateway error for a seller outcome that is not a usable reply. */
export function sellerFault(member: Member, outcome: Exclude<SellerOutcome, { kind: 'reply' }>): GatewayError {
  switch (outcome.kind) {
    case 'timeout':
      return new SellerTimeoutError(outcome.message, [{ path: '', message: outcome.message, member: member.id }]);
    case 'unreachable': {
      const detail = [{ path: '', message: outcome.message, member: member.id }];
      return outcome.sent
        ? new SellerUnavailableError(outcome.message, detail)
        : new SellerNotReachedError(outcome.message, detail);
    }
    case 'http-error':
      // 5xx: the seller system is down or failing. 4xx: it refused what we sent, a contract
      // mismatch between gateway and seller, so a system error rather than "offline". Any
      // other status (a 3xx: a 303 may follow an action taken) is a reply we cannot use.
      if (outcome.status === 503)
        return new SellerDeclinedError(outcome.message, [{ path: '', message: outcome.message, member: member.id }]);
      if (outcome.status >= 500)
        return new SellerUnavailableError(outcome.message, [{ path: '', message: outcome.message, member: member.id }]);
      if (outcome.status >= 400) {
        return new SellerRefusedError(`${outcome.message}: the seller refused the forwarded request`, [
          { path: '', message: outcome.body ?? '', member: member.id },
        ]);
      }
      return new SellerReplyError(`${outcome.message}, which is not a reply the contract allows`, [
        { path: '', message: outcome.body ?? '', member: member.id },
      ]);
    case 'malformed':
      return new SellerReplyError(outcome.message, [
        { path: '', message: 'the reply body is not valid JSON', member: member.id },
      ]);
    case 'refused-address':
      return new SellerAddressRefusedError(outcome.message, [
        { path: '', message: 'seller address refused: no request was sent', member: member.id },
      ]);
    case 'too-large':
      return new SellerReplyError(outcome.message, [
        {
          path: '',
          message: `the reply body is larger than ${outcome.limitBytes} bytes (GATEWAY_MAX_SELLER_REPLY_BYTES)`,
          member: member.id,
        },
      ]);
  }
}

const ruleDetail = (member: Member, v: Violation): Detail => {
  const detail: Detail = { path: v.path, message: v.message, rule: v.rule, member: member.id };
  if (v.id !== undefined) detail.id = v.id;
  if (v.expected !== undefined) detail.expected = v.expected;
  if (v.found !== undefined) detail.found = v.found;
  return detail;
};

export function forwardToSeller<T>(
  deps: OperationDeps,
  operation: ForwardedOperation,
  member: Member,
  body: object,
  input: { requestId: string; sellerHeaders?: Record<string, string> },
): Promise<CheckedReply<T>> {
  return deps.sellerClient
    .call({ member, body, requestId: input.requestId, headers: input.sellerHeaders })
    .then((outcome) => checkedReply<T>(deps, operation, member, body, outcome));
}

/** The seller's outcome as a reply the buyer may see, or the gateway error it amounts to. */
function checkedReply<T>(
  deps: OperationDeps,
  operation: ForwardedOperation,
  member: Member,
  body: object,
  outcome: SellerOutcome,
): CheckedReply<T> {
  if (outcome.kind !== 'reply') throw sellerFault(member, outcome);
  const check = deps.speedups.checkSellerReply(operation, body, outcome.body);
  deps.onReplyJudged?.({
    memberId: member.id,
    operation,
    request: body,
    replyText: outcome.text,
    reply: outcome.body,
    check,
  });
  if (check.errors.length > 0) {
    throw new SellerReplyError(
      `the seller of member ${member.id} sent a reply that does not match the contract (${check.errors.length} ` +
        `problem${check.errors.length === 1 ? '' : 's'}): ${check.errors.map((e) => `${e.path} ${e.message}`).join('; ')}`,
      check.errors.map((e) => ({ path: e.path, message: e.message, member: member.id })),
    );
  }
  if (check.violations.length > 0) deps.onViolations?.(member.id, check.violations);
  if (check.violations.length > 0 && !isLenient(deps, member)) {
    const rules = [...new Set(check.violations.map((v) => v.rule))];
    throw new SellerReplyError(
      `the seller of member ${member.id} sent a reply that breaks reply rule${rules.length === 1 ? '' : 's'} ${rules.join(', ')}`,
      check.violations.map((v) => ruleDetail(member, v)),
    );
  }
  return { member, reply: outcome.body as T, warnings: check.violations };
}

/** One header-safe line per broken rule passed on in lenient mode. */
export function warningLines(member: Member, violations: Violation[]): string[] {
  return violations.map((v) =>
    `${member.id} ${v.rule} at ${v.path}${v.id === undefined ? '' : ` (id ${v.id})`}`.replace(/[^\x20-\x7e]/g, '?'),
  );
}
