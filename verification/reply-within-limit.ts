// A seller's reply read with a ceiling: bytes are counted as they arrive and the read stops
// (the stream is cancelled, the connection dropped) at the first chunk past the limit, so a
// seller streaming without end costs at most the limit in memory, never the whole reply.

import { DEFAULT_MAX_SELLER_REPLY_BYTES } from '../contracts/seller-reply-size';

/** The default ceiling, the same as the gateway's GATEWAY_MAX_SELLER_REPLY_BYTES default: 8 MiB. */
export const DEFAULT_MAX_REPLY_BYTES = DEFAULT_MAX_SELLER_REPLY_BYTES;
/**
 * The highest limit a flag may set: a reply is held as one string, and V8's longest is just under 512 Mi characters.
 */
export const MAX_REPLY_BYTES_CEILING = 256 * 1024 * 1024;

export type LimitedReply =
  { kind: 'whole'; text: string; bytes: number } | { kind: 'too-large'; bytesRead: number; limit: number };

/**
 * Reads `body` (an undici/Node stream or a web ReadableStream: both iterate as byte chunks)
 * up to `maxBytes`. Leaving the loop early cancels the stream, which is what stops the seller.
 */
export async function readReplyWithin(
  body: AsyncIterable<Uint8Array> | null | undefined,
  maxBytes: number,
): Promise<LimitedReply> {
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  if (body != null) {
    for await (const chunk of body) {
      bytes += chunk.byteLength;
      if (bytes > maxBytes) return { kind: 'too-large', bytesRead: bytes, limit: maxBytes };
      chunks.push(chunk);
    }
  }
  return { kind: 'whole', text: Buffer.concat(chunks).toString('utf8'), bytes };
}

/** A size for people: 16777216 → "16 MiB (16777216 bytes)". */
export function bytesText(bytes: number): string {
  const units: [number, string][] = [
    [1024 * 1024 * 1024, 'GiB'],
    [1024 * 1024, 'MiB'],
    [1024, 'KiB'],
  ];
  for (const [size, unit] of units)
    if (bytes >= size && bytes % size === 0) return `${bytes / size} ${unit} (${bytes} bytes)`;
  return `${bytes} bytes`;
}
