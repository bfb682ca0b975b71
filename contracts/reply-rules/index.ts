import type { Operation } from '../schemas/index';
import { checkItemInquiryReply, itemInquiryRulesByPart, type ItemInquiryRuleState } from './item-inquiry';
import { checkPlaceOrderReply } from './place-order';
import { checkInvoiceReply, checkStatementReply } from './documents';
import type { RuleCheck } from './violation';

export * from './violation';
export {
  checkItemInquiryReply,
  checkPlaceOrderReply,
  checkInvoiceReply,
  checkStatementReply,
  itemInquiryRulesByPart,
  type ItemInquiryRuleState,
};

/** The reply rules of each forwarded operation: `(forwarded request, seller reply) → violations`. */
export const REPLY_RULES: Record<Exclude<Operation, 'users-create'>, (request: never, reply: never) => RuleCheck> = {
  'item-inquiry': checkItemInquiryReply,
  'place-order': checkPlaceOrderReply,
  invoice: checkInvoiceReply,
  statement: checkStatementReply,
};
