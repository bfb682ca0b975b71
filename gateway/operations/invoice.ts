import {
  invoiceRequestRules,
  type InvoiceBuyerReply,
  type InvoiceBuyerRequest,
  type InvoiceSellerReply,
  type InvoiceSellerRequest,
} from '../../contracts/index';
import { validBuyerRequest } from './buyer-request';
import { resolveDocumentAccess } from './document-access';
import { forwardToSeller, warningLines } from './forward';
import { forwardedCommon, memberOf } from './seller-member';
import type { OperationDeps, OperationInput, OperationResult } from './operation-deps';

// Invoice: `member` required; the account defaults to the buyer's account there; a buyer
// sees only their own accounts and locations. Filters travel to the seller as given.

export function createInvoice(deps: OperationDeps) {
  return async function invoice(input: OperationInput): Promise<OperationResult> {
    const request = validBuyerRequest<InvoiceBuyerRequest>('invoice', input.body, invoiceRequestRules);
    const access = await resolveDocumentAccess(deps, input.buyer.user, {
      member: request.member,
      account: request.account,
      locationId: request.location_id,
    });
    const member = await memberOf(deps, access.memberId);
    const { member: _member, account: _account, ...filters } = request;
    const forwarded: InvoiceSellerRequest = {
      service: 'invoice',
      ...forwardedCommon(member, input.buyer.user.terminalPin),
      member: access.memberId,
      account: access.accountId,
      ...filters,
    };
    const checked = await forwardToSeller<InvoiceSellerReply>(deps, 'invoice', member, forwarded, input);
    const reply: InvoiceBuyerReply = checked.reply;
    return { httpStatus: 200, reply, warnings: warningLines(member, checked.warnings), log: { members: [member.id] } };
  };
}
