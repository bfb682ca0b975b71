// The largest seller reply the toolkit reads, by default: the gateway (GATEWAY_MAX_SELLER_REPLY_BYTES)
// and the vendor kit and rules proxy (--max-reply-bytes) hold a seller to the same size. 8 MiB: the
// largest honest reply the gateway's limits allow (1,000 items × 3 entries × 5 locations, ~1.6 KB an
// entry) is about 4.8 MB, so 1.7× headroom.
export const DEFAULT_MAX_SELLER_REPLY_BYTES = 8 * 1024 * 1024;
