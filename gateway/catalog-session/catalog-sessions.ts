import { createHash, randomBytes } from 'node:crypto';
import type { Queryable } from '../store/store';

// Catalog session tokens: 256 random bits handed to the buyer system once; the store keeps
// only their SHA-256, so reading the table does not yield a usable session.

export interface CatalogSession {
  cartId: string;
  username: string;
  /** The buyer system that launched the session (null for sessions older than migration 005). */
  clientId: string | null;
  kid: string | null;
  expiresAt: Date;
}

export interface CatalogSessions {
  /** A new token for this cart; the cart must exist. */
  open(session: CatalogSession, now: Date): Promise<string>;
  /** The live session a token opens, or undefined (unknown, malformed or expired). */
  find(token: string, now: Date): Promise<CatalogSession | undefined>;
}

const sha256 = (token: string) => createHash('sha256').update(token).digest('hex');
/** 32 bytes in base64url: 43 characters of [A-Za-z0-9_-]. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export function createCatalogSessions(db: Queryable): CatalogSessions {
  return {
    async open(session, now) {
      const token = randomBytes(32).toString('base64url');
      await db.query(
        `INSERT INTO catalog_sessions (token_sha256, cart_id, username, client_id, kid, created_at, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6::timestamptz, $7::timestamptz)`,
        [
          sha256(token),
          session.cartId,
          session.username,
          session.clientId,
          session.kid,
          now.toISOString(),
          session.expiresAt.toISOString(),
        ],
      );
      return token;
    },

    async find(token, now) {
      if (!TOKEN_SHAPE.test(token)) return undefined;
      const { rows } = await db.query<{
        cart_id: string;
        username: string;
        client_id: string | null;
        kid: string | null;
        expires_at: Date | string;
      }>(
        `SELECT cart_id::text, username, client_id, kid, expires_at FROM catalog_sessions
         WHERE token_sha256 = $1 AND expires_at > $2::timestamptz`,
        [sha256(token), now.toISOString()],
      );
      const row = rows[0];
      return (
        row && {
          cartId: row.cart_id,
          username: row.username,
          clientId: row.client_id,
          kid: row.kid,
          expiresAt: new Date(row.expires_at),
        }
      );
    },
  };
}

export const isCatalogSessionToken = (token: string) => TOKEN_SHAPE.test(token);
