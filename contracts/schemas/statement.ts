import { Type, type Static } from '@sinclair/typebox';
import { CalendarDate, Closed, Id, ListOf, Open, ReplyId, ReplyText, SignedFloat, Text } from './common';

// Statements: an account and a date range are required.

const statementRequestFields = {
  account: Id('Account ID in the member system'),
  from_statement_date: CalendarDate('Start of the range, inclusive'),
  to_statement_date: CalendarDate('End of the range, inclusive'),
  location_id: Type.Optional(Id()),
  statement_type: Type.Optional(Id()),
};

export const StatementBuyerRequest = Closed(
  {
    ...statementRequestFields,
    member: Type.Optional(Id('Member ID; resolved from the account when omitted')),
  },
  { title: 'Statement — buyer request' },
);
export type StatementBuyerRequest = Static<typeof StatementBuyerRequest>;

// Forwarded: the gateway has resolved the member, so it always travels.
export const StatementSellerRequest = Closed(
  {
    service: Type.Literal('statement'),
    integration: Type.Optional(Text()),
    terminal_id: Type.Optional(Text()),
    ...statementRequestFields,
    member: Id(),
  },
  { title: 'Statement — forwarded seller request' },
);
export type StatementSellerRequest = Static<typeof StatementSellerRequest>;

export const StatementDetail = Open({
  invoice_date: CalendarDate(),
  invoice_number: Type.Optional(ReplyText()),
  reference_number: Type.Optional(ReplyText()),
  original_amount: Type.Optional(SignedFloat()),
  paid_amount: Type.Optional(SignedFloat()),
  reference_type: Type.Optional(ReplyText()),
});
export type StatementDetail = Static<typeof StatementDetail>;

export const Statement = Open({
  statement_date: CalendarDate(),
  account_id: ReplyId(),
  location_id: Type.Optional(ReplyText()),
  account_description: Type.Optional(ReplyText()),
  total_cost: SignedFloat('Negative when the account is in credit'),
  link_url: Type.Optional(ReplyText('A downloadable copy of the statement')),
  statement_detail: ListOf(StatementDetail),
});
export type Statement = Static<typeof Statement>;

const statementResultFields = {
  status: ReplyText('"success" when the seller answered'),
  error_description: Type.Optional(ReplyText()),
  statements: ListOf(Statement),
};

export const StatementSellerReply = Open(statementResultFields, { title: 'Statement — seller reply' });
export type StatementSellerReply = Static<typeof StatementSellerReply>;
export const StatementBuyerReply = Open(statementResultFields, { title: 'Statement — buyer reply' });
export type StatementBuyerReply = Static<typeof StatementBuyerReply>;
