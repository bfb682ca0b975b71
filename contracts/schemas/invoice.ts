import { Type, type Static } from '@sinclair/typebox';
import {
  CalendarDate,
  Closed,
  Id,
  ListOf,
  NonNegativeFloat,
  Open,
  ReplyId,
  ReplyText,
  SignedFloat,
  Text,
} from './common';

// Invoices: only `member` is required of the buyer; everything else filters.

const filterFields = {
  invoice_number: Type.Optional(Id()),
  po_number: Type.Optional(Id('Purchase order number')),
  from_invoice_date: Type.Optional(CalendarDate('Start of the date range, inclusive')),
  to_invoice_date: Type.Optional(CalendarDate('End of the date range, inclusive')),
  location_id: Type.Optional(Id()),
  part_number: Type.Optional(Id()),
  invoice_type: Type.Optional(Id()),
};

export const InvoiceBuyerRequest = Closed(
  {
    member: Id('Member ID in the member network'),
    account: Type.Optional(Id("Account ID in the member system; the buyer's account at the member when omitted")),
    ...filterFields,
  },
  { title: 'Invoice — buyer request' },
);
export type InvoiceBuyerRequest = Static<typeof InvoiceBuyerRequest>;

// Forwarded: the gateway has resolved the account, so it always travels.
export const InvoiceSellerRequest = Closed(
  {
    service: Type.Literal('invoice'),
    integration: Type.Optional(Text()),
    terminal_id: Type.Optional(Text()),
    member: Id(),
    account: Id(),
    ...filterFields,
  },
  { title: 'Invoice — forwarded seller request' },
);
export type InvoiceSellerRequest = Static<typeof InvoiceSellerRequest>;

export const InvoiceDetail = Open({
  item_quantity: SignedFloat('Negative on a return'),
  line_code: ReplyText(),
  part_number: ReplyText(),
  list_price: NonNegativeFloat(),
  cost: NonNegativeFloat(),
  description: Type.Optional(ReplyText()),
});
export type InvoiceDetail = Static<typeof InvoiceDetail>;

export const Invoice = Open({
  invoice_number: ReplyId(),
  invoice_date: CalendarDate(),
  account_id: ReplyId(),
  location_id: ReplyId(),
  location_description: ReplyText(),
  po_number: ReplyText(),
  item_count: SignedFloat(),
  total_cost: SignedFloat('Negative on a credit memo'),
  invoice_detail: ListOf(InvoiceDetail),
  link_url: Type.Optional(ReplyText('A downloadable copy of the invoice')),
});
export type Invoice = Static<typeof Invoice>;

const invoiceResultFields = {
  status: ReplyText('"success" when the seller answered'),
  error_description: Type.Optional(ReplyText()),
  invoices: ListOf(Invoice),
};

export const InvoiceSellerReply = Open(invoiceResultFields, { title: 'Invoice — seller reply' });
export type InvoiceSellerReply = Static<typeof InvoiceSellerReply>;
export const InvoiceBuyerReply = Open(invoiceResultFields, { title: 'Invoice — buyer reply' });
export type InvoiceBuyerReply = Static<typeof InvoiceBuyerReply>;
