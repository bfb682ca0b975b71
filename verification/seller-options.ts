import { probeUpstream } from '../shared/http/upstream-probe';
import type { SellerTarget } from './explore/exchange';
import { SellerUnreachableError } from './kit-errors';
import { headersOption, httpUrlOption, wholeNumberOption } from './option-checks';
import { DEFAULT_MAX_REPLY_BYTES, MAX_REPLY_BYTES_CEILING } from './reply-within-limit';

// What every kit function that talks to a seller takes and checks first: where it is, the
// headers it needs, how long it may take, how much of a reply is read; and whether it listens.

export interface SellerOptions {
  sellerUrl: string;
  headers?: Record<string, string>;
  timeoutMs?: number;
  maxReplyBytes?: number;
}

/** The options checked (KitInputError naming the one at fault), with the defaults filled in. */
export function sellerTargetOf(
  options: SellerOptions,
  defaultTimeoutMs: number,
): SellerTarget & { headers: Record<string, string>; maxReplyBytes: number } {
  return {
    sellerUrl: httpUrlOption('sellerUrl', options.sellerUrl),
    headers: headersOption('headers', options.headers),
    timeoutMs: wholeNumberOption('timeoutMs', options.timeoutMs, 1, 3_600_000, defaultTimeoutMs),
    maxReplyBytes: wholeNumberOption(
      'maxReplyBytes',
      options.maxReplyBytes,
      1,
      MAX_REPLY_BYTES_CEILING,
      DEFAULT_MAX_REPLY_BYTES,
    ),
  };
}

/** Throws SellerUnreachableError when the seller's host and port take no connection. */
export async function ensureSellerReachable(sellerUrl: string): Promise<void> {
  const unreachable = await probeUpstream(sellerUrl);
  if (unreachable !== undefined) throw new SellerUnreachableError(sellerUrl, unreachable);
}
