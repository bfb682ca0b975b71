import { DEFAULT_MAX_SELLER_REPLY_BYTES } from '../seller-client/seller-client.types';

// The gateway's self-protection settings: request limits, seller protection, rate limits.
// Defaults here; server-settings.ts fills them from the environment (one marked block).

export interface ProtectionConfig {
  /** Largest request body accepted, in bytes; a larger one is refused (413) before it is read. */
  maxBodyBytes: number;
  /** Most items one item inquiry may ask about. */
  maxInquiryItems: number;
  /** Most lines (items) one order may carry. */
  maxOrderLines: number;
  /** Consecutive failures or timeouts of one member's seller that open its circuit breaker. */
  breakerFailures: number;
  /** How long an open breaker answers at once before letting one probe through. */
  breakerCooldownMs: number;
  /** Largest seller reply body read, in bytes; a larger one is a 502 (5500) and a breaker failure. */
  maxSellerReplyBytes: number;
  /** Calls to one member's seller in flight at once; more are refused at once (5503). */
  memberConcurrency: number;
  /** Requests per window an API client may make, unless its directory entry (api_clients.rate_limit) says otherwise. */
  rateLimit: number;
  rateLimitWindowMs: number;
  /** Gateway instances sharing each client's limit: each instance allows limit / instances. */
  rateLimitInstances: number;
  /** Requests failing authentication one client address may make per minute, per instance; then 429. */
  authFailureLimit: number;
}

export const DEFAULT_PROTECTION_CONFIG: ProtectionConfig = {
  maxBodyBytes: 1024 * 1024,
  maxInquiryItems: 1_000,
  maxOrderLines: 500,
  breakerFailures: 5,
  breakerCooldownMs: 30_000,
  maxSellerReplyBytes: DEFAULT_MAX_SELLER_REPLY_BYTES,
  memberConcurrency: 64,
  rateLimit: 1_200,
  rateLimitWindowMs: 60_000,
  rateLimitInstances: 1,
  authFailureLimit: 120,
};
