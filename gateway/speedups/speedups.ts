import { checkSellerReply } from '../../contracts/index';
import { buyerReplyWriters, WALKING_WRITERS, type BuyerReplyWriters } from '../float-json/buyer-reply-json';
import { mergeReplies } from '../operations/item-merge';
import { generateFloatJsonWriter } from './generated-reply-writer';
import { mergeRepliesWithShortcut } from './merge-shortcut';
import { checkSellerReplyInOnePass, type SellerReplyCheck } from './one-pass-check';

// What the gateway does only to be fast, in one place. Each speed-up stands in for a plain
// version that does the same work the obvious way; the plain one is its oracle in the tests
// (speedups.test.ts answers the same requests through the whole gateway both ways, and each
// speed-up's own test holds it against its plain version). GATEWAY_SPEEDUPS turns them off one
// by one, which is how the lab's bench measures each one's gain (docs/performance.md).

/** Every speed-up, by the name GATEWAY_SPEEDUPS gives it. */
export const SPEEDUP_NAMES = ['one-pass-check', 'generated-writer', 'merge-shortcut', 'own-runner'] as const;

export type SpeedupName = (typeof SPEEDUP_NAMES)[number];

/** The parts of the gateway a speed-up replaces. */
export interface Speedups {
  /** How a seller's reply is checked against the forwarded request. */
  checkSellerReply: SellerReplyCheck;
  /** How each buyer reply is written. */
  buyerReplyWriters: BuyerReplyWriters;
  /** How item inquiry merges its seller replies into the buyer's entries. */
  mergeReplies: typeof mergeReplies;
  /** How the buyer routes run the gateway's pipeline: in their own handler, or as Hono middleware. */
  buyerRoutes: 'own-runner' | 'middleware';
}

/** The generated writers, made once (each costs a schema compiled into JavaScript). */
export const GENERATED_WRITERS = buyerReplyWriters(generateFloatJsonWriter);

/** Each part: the speed-up that fills it, its plain version, and the speed-up's name. */
const PARTS: { [Part in keyof Speedups]: { name: SpeedupName; fast: Speedups[Part]; plain: Speedups[Part] } } = {
  checkSellerReply: { name: 'one-pass-check', fast: checkSellerReplyInOnePass, plain: checkSellerReply },
  buyerReplyWriters: { name: 'generated-writer', fast: GENERATED_WRITERS, plain: WALKING_WRITERS },
  mergeReplies: { name: 'merge-shortcut', fast: mergeRepliesWithShortcut, plain: mergeReplies },
  buyerRoutes: { name: 'own-runner', fast: 'own-runner', plain: 'middleware' },
};

/** The gateway with the named speed-ups on (all of them by default) and the plain version of the rest. */
export function speedups(on: Iterable<SpeedupName> = SPEEDUP_NAMES): Speedups {
  const chosen = new Set(on);
  const pick = <Part extends keyof Speedups>(part: Part): Speedups[Part] =>
    chosen.has(PARTS[part].name) ? PARTS[part].fast : PARTS[part].plain;
  return {
    checkSellerReply: pick('checkSellerReply'),
    buyerReplyWriters: pick('buyerReplyWriters'),
    mergeReplies: pick('mergeReplies'),
    buyerRoutes: pick('buyerRoutes'),
  };
}

/** Every speed-up on: what the gateway runs unless told otherwise. */
export const ALL_SPEEDUPS = speedups();

/** Every part in its plain version: the oracle. */
export const NO_SPEEDUPS = speedups([]);
