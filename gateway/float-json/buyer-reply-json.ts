import type { TSchema } from '@sinclair/typebox';
import { PAYLOADS } from '../../contracts/index';
import { compileFloatJson } from './float-json';

const BUYER_REPLY_SCHEMAS = {
  'item-inquiry': PAYLOADS['item-inquiry']['buyer-reply'],
  'place-order': PAYLOADS['place-order']['buyer-reply'],
  invoice: PAYLOADS.invoice['buyer-reply'],
  statement: PAYLOADS.statement['buyer-reply'],
};

export type BuyerReplyOperation = keyof typeof BUYER_REPLY_SCHEMAS;

/** JSON as the UTF-8 bytes that go on the wire. */
export type JsonBytesWriter = (value: unknown) => Buffer;

/** The serializer of every buyer reply, one per operation. */
export type BuyerReplyWriters = Record<BuyerReplyOperation, JsonBytesWriter>;

/** A writer per operation, each compiled once from its contract schema. */
export function buyerReplyWriters(compile: (schema: TSchema) => JsonBytesWriter): BuyerReplyWriters {
  const writers = {} as BuyerReplyWriters;
  for (const [operation, schema] of Object.entries(BUYER_REPLY_SCHEMAS))
    writers[operation as BuyerReplyOperation] = compile(schema);
  return writers;
}

/** The plain writers (float-json.ts), whose output the gateway's faster ones must match. */
export const WALKING_WRITERS = buyerReplyWriters((schema) => {
  const write = compileFloatJson(schema);
  return (value) => Buffer.from(write(value));
});
