import {
  statementRequestRules,
  type StatementBuyerReply,
  type StatementBuyerRequest,
  type StatementSellerReply,
  type StatementSellerRequest,
} from '../../contracts/index';
import { validBuyerRequest } from './buyer-request';
import { resolveDocumentAccess } from './document-access';
import { forwardToSeller, warningLines } from './forward';
import { forwardedCommon, memberOf } from './seller-member';
import type { OperationDeps, OperationInput, OperationResult } from './operation-deps';

// Statement: account and a real date range required (the schema checks the dates exist,
// the request rules that from ≤ to); the member is resolved from the account when absent.

export function createStatement(deps: OperationDeps) {
  return async function statement(input: OperationInput): Promise<OperationResult> {
    const request = validBuyerRequest<StatementBuyerRequest>('statement', input.body, statementRequestRules);
    const access = await resolveDocumentAccess(deps, input.buyer.user, {
      member: request.member,
      account: request.account,
      locationId: request.location_id,
    });
    const member = await memberOf(deps, access.memberId);
    const forwarded: StatementSellerRequest = {
      service: 'statement',
      ...forwardedCommon(member, input.buyer.user.terminalPin),
      ...request,
      member: access.memberId,
      account: access.accountId,
    };
    const checked = await forwardToSeller<StatementSellerReply>(deps, 'statement', member, forwarded, input);
    const reply: StatementBuyerReply = checked.reply;
    return { httpStatus: 200, reply, warnings: warningLines(member, checked.warnings), log: { members: [member.id] } };
  };
}
