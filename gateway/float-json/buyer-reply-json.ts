import { PAYLOADS } from '../../contracts/index';
import { compileFloatJson, type JsonBytesWriter } from './float-json';

/** The one serializer of every buyer reply, planned once per operation from its contract schema. */
export const buyerReplyJson = {
  'item-inquiry': compileFloatJson(PAYLOADS['item-inquiry']['buyer-reply']),
  'place-order': compileFloatJson(PAYLOADS['place-order']['buyer-reply']),
  invoice: compileFloatJson(PAYLOADS.invoice['buyer-reply']),
  statement: compileFloatJson(PAYLOADS.statement['buyer-reply']),
} satisfies Record<string, JsonBytesWriter>;

export type BuyerReplyOperation = keyof typeof buyerReplyJson;
