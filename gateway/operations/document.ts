import {
  invoiceRequestRules,
  statementRequestRules,
  type InvoiceBuyerReply,
  type InvoiceBuyerRequest,
  type InvoiceSellerReply,
  type InvoiceSellerRequest,
  type StatementBuyerReply,
  type StatementBuyerRequest,
  type StatementSellerReply,
  type StatementSellerRequest,
  type ValidationIssue,
} from '../../contracts/index';
import { validBuyerRequest } from './buyer-request';
import { resolveDocumentAccess } from './document-access';
import { forwardToSeller, warningLines } from './forward';
import { forwardedCommon, memberOf } from './seller-member';
import { notServing, notServingDetail } from './member-serving';
import type { OperationDeps, OperationInput, OperationResult } from './operation-deps';

// Invoice and statement are one flow: check the request, resolve which member and account
// the buyer may see (document-access.ts: invoice needs `member`, the account defaulting to the
// buyer's there; statement needs `account`, the member resolved from it), forward the
// filters as given, answer with the seller's checked reply.

interface DocumentKinds {
  invoice: {
    request: InvoiceBuyerRequest;
    forwarded: InvoiceSellerRequest;
    sellerReply: InvoiceSellerReply;
    reply: InvoiceBuyerReply;
  };
  statement: {
    request: StatementBuyerRequest;
    forwarded: StatementSellerRequest;
    sellerReply: StatementSellerReply;
    reply: StatementBuyerReply;
  };
}
export type DocumentKind = keyof DocumentKinds;

const REQUEST_RULES: { [K in DocumentKind]: (request: DocumentKinds[K]['request']) => ValidationIssue[] } = {
  invoice: invoiceRequestRules,
  statement: statementRequestRules,
};

export function createDocumentOperation<K extends DocumentKind>(deps: OperationDeps, kind: K) {
  return async function document(input: OperationInput): Promise<OperationResult> {
    const request = validBuyerRequest<DocumentKinds[K]['request']>(kind, input.body, REQUEST_RULES[kind]);
    const access = await resolveDocumentAccess(deps, input.buyer.user, {
      member: request.member,
      account: request.account,
      locationId: request.location_id,
    });
    const member = await memberOf(deps, access.memberId);
    if (member.status !== 'live') {
      // The member the buyer named, or the one their account is held at.
      const path = request.member === undefined ? '/account' : '/member';
      const what = request.member === undefined ? `account '${access.accountId}'` : undefined;
      throw notServing(member, [notServingDetail(member, path, what)]);
    }
    const { member: _member, account: _account, ...filters } = request;
    const forwarded = {
      service: kind,
      ...forwardedCommon(member, input.buyer.user.terminalPin),
      member: access.memberId,
      account: access.accountId,
      ...filters,
    } as DocumentKinds[K]['forwarded'];
    const checked = await forwardToSeller<DocumentKinds[K]['sellerReply']>(deps, kind, member, forwarded, input);
    const reply: DocumentKinds[K]['reply'] = checked.reply;
    return { httpStatus: 200, reply, warnings: warningLines(member, checked.warnings), log: { members: [member.id] } };
  };
}
