import { Type, type Static } from '@sinclair/typebox';
import { CodeOf, ListOf, Open, ReplyText } from './common';
import { OverallStatus } from '../codes';

// What the gateway answers when it cannot give a result. The specification shows no
// error body; this is ours: the overall code, a sentence, and every field or rule at fault.

export const ErrorDetail = Open({
  path: ReplyText('JSON pointer of the field at fault, "" for the whole body'),
  message: ReplyText(),
  rule: Type.Optional(ReplyText('Reply-rule name when a seller reply broke the contract')),
  expected: Type.Optional(Type.Unknown()),
  found: Type.Optional(Type.Unknown()),
});
export type ErrorDetail = Static<typeof ErrorDetail>;

export const GatewayErrorReply = Open(
  {
    status_code: CodeOf(OverallStatus),
    message: ReplyText(),
    errors: Type.Optional(ListOf(ErrorDetail)),
  },
  { title: 'Gateway error reply' },
);
export type GatewayErrorReply = Static<typeof GatewayErrorReply>;
