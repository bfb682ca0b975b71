import type { Store } from '../store/store';
import { readDirectorySeed, type DirectorySeed } from './directory-seed';

// npm start's demo: the seeded members call the mock seller npm start runs, wherever it listens
// (MOCK_SELLER_PORT, MOCK_SELLER_HOST, MOCK_SELLER_PUBLIC_URL, port 0). The seeds are written
// once, on a fresh data directory; on an existing one the seeded members still call the mock
// seller's address of that first start, so they are pointed at today's. Only a seeded member
// whose seller is still a local mock seller (http on a loopback address, path /seller) moves: a
// URL an operator set by hand stays as it is.

/** http://127.0.0.1:9090/seller, http://localhost:9391/seller, http://[::1]:0/seller. */
const LOCAL_MOCK_SELLER = /^http:\/\/(127\.\d+\.\d+\.\d+|localhost|\[::1\]):\d+\/seller$/;

/**
 * The seller URL the demo's members call: the public URL if one is
 * set, else where the mock listens (a wildcard host as loopback).
 */
export function demoSellerUrl(listening: string, publicUrl?: string): string {
  const base = new URL(publicUrl ?? listening);
  if (base.hostname === '0.0.0.0') base.hostname = '127.0.0.1';
  if (base.hostname === '[::]') base.hostname = '[::1]';
  return `${base.origin}/seller`;
}

/** Points the seeded members still on a local mock seller at `sellerUrl`; the ids moved and where from. */
export async function pointSeededMembersAt(
  store: Store,
  sellerUrl: string,
  seed?: DirectorySeed,
): Promise<{ id: string; was: string }[]> {
  const ids = (seed ?? (await readDirectorySeed())).members.map((m) => m.id);
  const { rows } = await store.query<{ id: string; seller_url: string }>(
    'SELECT id, seller_url FROM members WHERE id = ANY($1::text[]) ORDER BY id',
    [ids],
  );
  const moved = rows.filter((r) => r.seller_url !== sellerUrl && LOCAL_MOCK_SELLER.test(r.seller_url));
  if (moved.length > 0)
    await store.query('UPDATE members SET seller_url = $1 WHERE id = ANY($2::text[])', [
      sellerUrl,
      moved.map((r) => r.id),
    ]);
  return moved.map((r) => ({ id: r.id, was: r.seller_url }));
}
