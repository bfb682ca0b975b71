import type { ForwardedOperation } from '../../contracts/reply-check';
import type { RuleName } from '../../contracts/reply-rules/violation';
import { REPLY_RULES_OF, SCHEMA_RULE } from '../../contracts/reply-rules/rules-by-operation';
import type { InvoiceSellerReply, InvoiceSellerRequest } from '../../contracts/schemas/invoice';
import type { ItemInquirySellerReply } from '../../contracts/schemas/item-inquiry';
import type { StatementSellerReply, StatementSellerRequest } from '../../contracts/schemas/statement';

// Which reply rules an exchange put to the test: a rule counts as exercised only when the
// request and the reply gave it something to check (an alternate entry for
// alternate.original-part, a requested invoice number and an invoice for invoice.number…).
// The two pseudo-rules come first: the seller answered (HTTP 200, JSON, in time), and the
// reply has the contract's shape.

export const ANSWER_RULE = 'reply.answer';
export { SCHEMA_RULE };
export type ExploreRule = RuleName | typeof ANSWER_RULE | typeof SCHEMA_RULE;

export const RULES_OF: Record<ForwardedOperation, readonly ExploreRule[]> = {
  'item-inquiry': [ANSWER_RULE, ...REPLY_RULES_OF['item-inquiry']],
  'place-order': [ANSWER_RULE, ...REPLY_RULES_OF['place-order']],
  invoice: [ANSWER_RULE, ...REPLY_RULES_OF.invoice],
  statement: [ANSWER_RULE, ...REPLY_RULES_OF.statement],
};

function itemInquiryRules(reply: ItemInquirySellerReply): ExploreRule[] {
  const out: ExploreRule[] = ['reply.status-code', 'item.id-echo', 'item.unknown-id', 'item.status-code'];
  const entries = reply.items;
  if (entries.length > 0) out.push('item.requested-part-missing', 'item.requested-part-duplicate');
  if (entries.some((e) => e.status_code === 0 || e.status_code === 1))
    out.push('item.requested-part-mismatch', 'item.original-mismatch');
  if (entries.some((e) => e.status_code >= 2)) out.push('alternate.original-part', 'alternate.original-mfr');
  const locations = entries.flatMap((e) => e.locations);
  if (locations.length > 0) out.push('location.not-forwarded', 'location.duplicate');
  if (locations.some((l) => l.type !== undefined)) out.push('location.type-code');
  return out;
}

function invoiceRules(request: InvoiceSellerRequest, reply: InvoiceSellerReply): ExploreRule[] {
  if (reply.invoices.length === 0) return [];
  const out: ExploreRule[] = ['invoice.account'];
  if (request.from_invoice_date !== undefined || request.to_invoice_date !== undefined) out.push('invoice.date-range');
  if (request.invoice_number !== undefined) out.push('invoice.number');
  if (request.po_number !== undefined) out.push('invoice.po-number');
  if (request.location_id !== undefined) out.push('invoice.location');
  if (request.part_number !== undefined) out.push('invoice.part-number');
  return out;
}

function statementRules(request: StatementSellerRequest, reply: StatementSellerReply): ExploreRule[] {
  if (reply.statements.length === 0) return [];
  const out: ExploreRule[] = ['statement.date-range', 'statement.account'];
  if (request.location_id !== undefined && reply.statements.some((s) => s.location_id !== undefined))
    out.push('statement.location');
  return out;
}

/** The rules (beyond answer and schema) this exchange exercised; the reply passed the schema. */
export function exercisedRules(operation: ForwardedOperation, request: unknown, reply: unknown): ExploreRule[] {
  switch (operation) {
    case 'item-inquiry':
      return itemInquiryRules(reply as ItemInquirySellerReply);
    case 'place-order':
      return (reply as { items: unknown[] }).items.length > 0
        ? ['reply.status-code', 'order.id-echo', 'order.unknown-id', 'order.duplicate-id', 'order.item-status']
        : ['reply.status-code', 'order.id-echo'];
    case 'invoice':
      return invoiceRules(request as InvoiceSellerRequest, reply as InvoiceSellerReply);
    case 'statement':
      return statementRules(request as StatementSellerRequest, reply as StatementSellerReply);
  }
}
