import type { SellerData } from './seller-data';

// Item inquiry replies by exact request body. The same bytes asked of the same data get the
// same answer, and load tests ask the same thing over and over: a hit skips parsing,
// validating and assembling. Emptied whenever the data changes (orders lower stock; reset,
// scenario loads and provider states replace the data), bounded so varied bodies can't grow it.

export interface ReplyCache {
  get(data: SellerData, body: string): Buffer | undefined;
  set(data: SellerData, body: string, reply: Buffer): void;
  clear(): void;
}

/** Bodies longer than this are not worth keeping (and not what load tests send). */
const MAX_BODY = 4096;

export function createReplyCache(maxEntries = 256): ReplyCache {
  let owner: SellerData | undefined;
  const replies = new Map<string, Buffer>();
  return {
    get(data, body) {
      return owner === data ? replies.get(body) : undefined;
    },
    set(data, body, reply) {
      if (body.length > MAX_BODY) return;
      if (owner !== data || replies.size >= maxEntries) {
        replies.clear();
        owner = data;
      }
      replies.set(body, reply);
    },
    clear() {
      replies.clear();
    },
  };
}
