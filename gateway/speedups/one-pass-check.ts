import {
  PAYLOADS,
  checkSellerReply,
  itemInquiryRulesByPart,
  type ForwardedOperation,
  type ItemInquiryRuleState,
  type ItemInquirySellerRequest,
  type ReplyCheck,
} from '../../contracts/index';
import { generateOnePassWalk } from './one-pass-walk';

// The one-pass check: the schema and every reply rule of an item inquiry in one walk of the
// parsed reply (one-pass-walk.ts), the rules being the very functions checkSellerReply calls
// (contracts/reply-rules/item-inquiry.ts), in the same order. Its plain version, the oracle,
// is checkSellerReply: Ajv's full pass, then the rules. What it finds is what that finds, by
// proof (one-pass-check.test.ts bounded, `npm run -w lab one-pass:agreement` at length):
// - a reply of exactly the contract's shape: the rules' findings, gathered during the walk;
// - anything else (a schema error, a field beyond the contract, which is a note): the walk
//   stops at the first sign of it and checkSellerReply says what is wrong. That is rare.
// Place order, invoice and statement take checkSellerReply whole: small replies, not worth it.
// Measured gain: without it the gateway serves 0.80 of the bare proxy's item inquiries, not
// 0.83, at 1.27 times its CPU a request, not 1.21 (docs/performance.md, "Speed-ups").

/** How the gateway checks a seller's reply against the request it forwarded. */
export type SellerReplyCheck = (operation: ForwardedOperation, forwardedRequest: unknown, reply: unknown) => ReplyCheck;

const itemInquiryWalk = lazily(() =>
  generateOnePassWalk<ItemInquiryRuleState>(PAYLOADS['item-inquiry']['seller-reply'], {
    '': { enter: 'reply', leave: 'end' },
    '/items/*': { enter: 'entry' },
    '/items/*/locations/*': { enter: 'location' },
  }),
);

function checkItemInquiryInOnePass(request: unknown, reply: unknown): ReplyCheck {
  const rules = itemInquiryRulesByPart;
  const state = rules.start(request as ItemInquirySellerRequest);
  if (!itemInquiryWalk()(reply, state, rules)) return checkSellerReply('item-inquiry', request, reply);
  const { violations, notes } = state.found;
  return { ok: violations.length === 0, errors: [], violations, notes };
}

/** Generated when first used, as the validators are compiled (a CLI's --help stays quick). */
function lazily<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= make());
}

/** Generates every walk now: a server calls it at start, beside compileAllValidators, so no request pays for it. */
export function compileOnePassChecks(): void {
  itemInquiryWalk();
}

/** checkSellerReply's verdict, in one pass over the reply for an item inquiry. */
export const checkSellerReplyInOnePass: SellerReplyCheck = (operation, forwardedRequest, reply) =>
  operation === 'item-inquiry'
    ? checkItemInquiryInOnePass(forwardedRequest, reply)
    : checkSellerReply(operation, forwardedRequest, reply);
