// The edge between the gateway and seller systems. Implemented by createSellerClient()
// in seller-client.ts (undici `request` on a keep-alive Pool per member and seller origin). The Pact
// consumer tests drive the real implementation, so this surface stays small.

import type { Dispatcher, Pool } from 'undici';
import type { SellerAddressPolicy, SellerResolver } from './seller-address-policy';
import type { Member } from '../directory/directory';

export interface SellerCall {
  /** Whose seller system: URL, auth, timeout. */
  member: Pick<Member, 'id' | 'sellerUrl' | 'sellerAuth' | 'timeoutMs'>;
  /** The forwarded request (contracts: *SellerRequest), sent as the JSON body. */
  body: object;
  /** Overrides member.timeoutMs for this call. */
  deadlineMs?: number;
  /** Propagated to the seller as the `x-request-id` header. */
  requestId?: string;
  /** Further headers for the seller (e.g. a development fault header the gateway was told to pass on). */
  headers?: Record<string, string>;
}

/** What came back, classified; never throws for a seller's fault. */
export type SellerOutcome =
  /** `text`: the body as read (the conformance sample keeps a broken reply's very bytes). */
  | { kind: 'reply'; status: number; body: unknown; text?: string; elapsedMs: number }
  | { kind: 'timeout'; message: string; elapsedMs: number }
  /**
   * No usable answer from the connection. `sent` is false only when no connection was made
   * (refused, no such host, connect timeout, unusable URL): then the seller certainly never
   * saw the request, which decides whether an order may be sent again.
   */
  | { kind: 'unreachable'; message: string; sent: boolean; elapsedMs: number }
  | { kind: 'http-error'; status: number; message: string; body?: string; elapsedMs: number }
  | { kind: 'malformed'; status: number; message: string; body: string; elapsedMs: number }
  /**
   * The production address policy refused the seller's URL or the
   * address it resolved to: no connection was made, nothing sent.
   */
  | { kind: 'refused-address'; message: string; elapsedMs: number }
  /** The reply was larger than the gateway reads; what arrived was dropped, the connection closed. */
  | { kind: 'too-large'; status: number; message: string; limitBytes: number; elapsedMs: number };

export interface SellerClient {
  call(call: SellerCall): Promise<SellerOutcome>;
  close(): Promise<void>;
}

/**
 * GATEWAY_MAX_SELLER_REPLY_BYTES' default, 8 MiB, shared with the
 * kit; the arithmetic is in its description (server-settings.ts).
 */
export { DEFAULT_MAX_SELLER_REPLY_BYTES } from '../../contracts/seller-reply-size';

export interface SellerClientOptions {
  /** Keep-alive connections per member and seller origin. */
  connections?: number;
  /** Largest seller reply body read, in bytes; a larger one is a 'too-large' outcome. */
  maxReplyBytes?: number;
  /**
   * Builds a member's pool from its options; default undici's Pool (a test wraps it to stand in for undici's defaults).
   */
  /** Where calls may go (production: https, no internal addresses); default unrestricted. */
  addressPolicy?: SellerAddressPolicy;
  /** Resolves seller hostnames when the policy is enforced; default the system's (dns.lookup). */
  resolver?: SellerResolver;
  poolFor?: (origin: string, options: Pool.Options) => Dispatcher;
}
