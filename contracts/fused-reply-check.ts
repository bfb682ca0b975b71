import { generateFusedWalk } from './fused-walk';
import { checkSellerReply, type ForwardedOperation, type ReplyCheck } from './reply-check';
import { itemInquiryRulesByPart, type ItemInquiryRuleState } from './reply-rules/index';
import { PAYLOADS } from './schemas/index';
import type { ItemInquirySellerRequest } from './schemas/item-inquiry';

// The seller reply check in one pass: the schema and every reply rule of the
// operation in one generated walk of the parsed reply (contracts/fused-walk.ts), the rules
// being the very steps checkSellerReply's rules take (reply-rules/item-inquiry.ts). What it
// finds is what the reference path finds, by construction and by proof
// (fused-reply-check.test.ts, `npm run -w lab fused:agreement`):
// - a reply of exactly the contract's shape: the rules' findings, gathered during the walk,
//   in the order the reference gathers them (the same steps in the same order);
// - anything else (a schema error, a field beyond the contract, which is a note): the walk
//   stops at the first sign of it and the reference path (Ajv's full pass, then the rules)
//   says what is wrong. That is rare, and it is what the reference did anyway.
// Operations without a fused walk yet (place order, invoice, statement: small replies, not
// what the yardstick measures) take the reference path whole.

export type SellerReplyCheck = (operation: ForwardedOperation, forwardedRequest: unknown, reply: unknown) => ReplyCheck;

type Fused = (forwardedRequest: unknown, reply: unknown) => ReplyCheck;

const itemInquiryWalk = lazily(() =>
  generateFusedWalk<ItemInquiryRuleState>(PAYLOADS['item-inquiry']['seller-reply'], {
    '': { enter: 'reply', leave: 'end' },
    '/items/*': { enter: 'entry' },
    '/items/*/locations/*': { enter: 'location' },
  }),
);

function fusedItemInquiry(): Fused {
  const steps = itemInquiryRulesByPart;
  return (request, reply) => {
    const state = steps.start(request as ItemInquirySellerRequest);
    if (!itemInquiryWalk()(reply, state, steps)) return checkSellerReply('item-inquiry', request, reply);
    const { violations, notes } = state.found;
    return { ok: violations.length === 0, errors: [], violations, notes };
  };
}

/** Generated when first used, as the validators are compiled (a CLI's --help stays quick). */
function lazily<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= make());
}

/**
 * Generates every fused walk now: a server calls it at start,
 * beside compileAllValidators, so no buyer's request pays for it.
 */
export function compileFusedChecks(): void {
  itemInquiryWalk();
}

const FUSED: Partial<Record<ForwardedOperation, Fused>> = { 'item-inquiry': fusedItemInquiry() };

/** checkSellerReply's verdict, in one pass over the reply where the operation has a fused walk. */
export const checkSellerReplyFused: SellerReplyCheck = (operation, forwardedRequest, reply) => {
  const fused = FUSED[operation];
  return fused === undefined ? checkSellerReply(operation, forwardedRequest, reply) : fused(forwardedRequest, reply);
};
