// Registering, listing and revoking buyer systems' public keys: what `npm run keys` does,
// as functions so tests (and an admin API, later) call them in-process. Writes go through
// one transaction each, and invalidate the directory cache given, so a revoked key stops
// working in this process at once; the transaction also sends the store's directory-change
// signal, so other processes on the same PostgreSQL drop their caches on commit too.
import { createPublicKey, type KeyObject } from 'node:crypto';
import type { Store } from '../store/store';
import type { Directory, KeyAlgorithm } from './directory';

export class KeyCommandError extends Error {
  override name = 'KeyCommandError';
}

export const KEY_ALGORITHMS: readonly KeyAlgorithm[] = ['RS256', 'ES256'];
const MIN_RSA_BITS = 2048;

/** Parses a public key PEM and checks it suits `algorithm`; returns it as SPKI PEM. */
export function normalizePublicKey(pem: string, algorithm: KeyAlgorithm): string {
  if (/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(pem)) {
    throw new KeyCommandError(
      'that file holds a PRIVATE key: register only the public half (-----BEGIN PUBLIC KEY-----)',
    );
  }
  let key: KeyObject;
  try {
    key = createPublicKey(pem);
  } catch (error) {
    throw new KeyCommandError(`not a readable public key PEM: ${(error as Error).message}`);
  }
  if (algorithm === 'RS256') {
    if (key.asymmetricKeyType !== 'rsa') {
      throw new KeyCommandError(`RS256 needs an RSA public key; this one is ${key.asymmetricKeyType}`);
    }
    const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
    if (bits < MIN_RSA_BITS)
      throw new KeyCommandError(`RSA key is ${bits} bits; RS256 keys must have at least ${MIN_RSA_BITS}`);
  } else {
    if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
      const curve = key.asymmetricKeyDetails?.namedCurve;
      throw new KeyCommandError(
        `ES256 needs an EC P-256 public key; this one is ${key.asymmetricKeyType}${curve ? ` on ${curve}` : ''}`,
      );
    }
  }
  return key.export({ type: 'spki', format: 'pem' }).toString();
}

export interface RegisterKeyInput {
  clientId: string;
  kid: string;
  publicKeyPem: string;
  algorithm?: KeyAlgorithm;
  /** Users the client may act for. Required when the client is new. */
  usernames?: string[];
  /** Display name for a new client; defaults to its id. */
  clientName?: string;
}

export interface RegisteredKey {
  kid: string;
  clientId: string;
  algorithm: KeyAlgorithm;
  createdClient: boolean;
  linkedUsernames: string[];
}

export async function registerKey(
  store: Store,
  input: RegisterKeyInput,
  directory?: Directory,
): Promise<RegisteredKey> {
  const algorithm = input.algorithm ?? 'RS256';
  if (!KEY_ALGORITHMS.includes(algorithm))
    throw new KeyCommandError(`algorithm must be RS256 or ES256, not ${algorithm}`);
  if (!input.clientId.trim()) throw new KeyCommandError('client id must not be empty');
  if (!input.kid.trim()) throw new KeyCommandError('kid must not be empty');
  const publicKeyPem = normalizePublicKey(input.publicKeyPem, algorithm);
  const usernames = [...new Set(input.usernames ?? [])];

  const result = await store.transaction(async (tx) => {
    const existingKey = await tx.query<{ client_id: string }>('SELECT client_id FROM api_keys WHERE kid = $1', [
      input.kid,
    ]);
    if (existingKey.rows[0]) {
      throw new KeyCommandError(
        `kid ${input.kid} is already registered (client ${existingKey.rows[0].client_id}); kids are never reused — choose another`,
      );
    }
    const created = await tx.query('INSERT INTO api_clients (id, name) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING', [
      input.clientId,
      input.clientName ?? input.clientId,
    ]);
    const createdClient = created.affectedRows === 1;
    if (createdClient && usernames.length === 0) {
      throw new KeyCommandError(`client ${input.clientId} is new: name the buyer user it acts for (--user <username>)`);
    }
    for (const username of usernames) {
      const user = await tx.query<{ id: number }>('SELECT id FROM users WHERE username = $1', [username]);
      if (!user.rows[0]) throw new KeyCommandError(`unknown user ${username}`);
      await tx.query(
        'INSERT INTO api_client_users (client_id, user_id) VALUES ($1, $2) ON CONFLICT (client_id, user_id) DO NOTHING',
        [input.clientId, user.rows[0].id],
      );
    }
    await tx.query('INSERT INTO api_keys (kid, client_id, algorithm, public_key_pem) VALUES ($1, $2, $3, $4)', [
      input.kid,
      input.clientId,
      algorithm,
      publicKeyPem,
    ]);
    await store.notifyDirectoryChanged?.(tx);
    const linked = await tx.query<{ username: string }>(
      `SELECT u.username FROM api_client_users cu JOIN users u ON u.id = cu.user_id
       WHERE cu.client_id = $1 ORDER BY u.username`,
      [input.clientId],
    );
    return {
      kid: input.kid,
      clientId: input.clientId,
      algorithm,
      createdClient,
      linkedUsernames: linked.rows.map((r) => r.username),
    };
  });
  directory?.invalidate();
  return result;
}

export interface KeyListing {
  kid: string;
  clientId: string;
  algorithm: KeyAlgorithm;
  active: boolean;
  createdAt: Date;
  revokedAt: Date | null;
  linkedUsernames: string[];
}

export async function listKeys(store: Store): Promise<KeyListing[]> {
  const { rows } = await store.query<{
    kid: string;
    client_id: string;
    algorithm: KeyAlgorithm;
    active: boolean;
    created_at: Date;
    revoked_at: Date | null;
    usernames: string | null;
  }>(
    `SELECT k.kid, k.client_id, k.algorithm, k.active, k.created_at, k.revoked_at,
            (SELECT string_agg(u.username, ',' ORDER BY u.username)
               FROM api_client_users cu JOIN users u ON u.id = cu.user_id
              WHERE cu.client_id = k.client_id) AS usernames
     FROM api_keys k ORDER BY k.client_id, k.created_at, k.kid`,
  );
  return rows.map((r) => ({
    kid: r.kid,
    clientId: r.client_id,
    algorithm: r.algorithm,
    active: r.active,
    createdAt: r.created_at,
    revokedAt: r.revoked_at,
    linkedUsernames: r.usernames ? r.usernames.split(',') : [],
  }));
}

export async function revokeKey(
  store: Store,
  kid: string,
  directory?: Directory,
): Promise<{ kid: string; revokedAt: Date }> {
  const result = await store.transaction(async (tx) => {
    const revoked = await tx.query<{ revoked_at: Date }>(
      'UPDATE api_keys SET active = false, revoked_at = now() WHERE kid = $1 AND active RETURNING revoked_at',
      [kid],
    );
    if (revoked.rows[0]) {
      await store.notifyDirectoryChanged?.(tx);
      return { kid, revokedAt: revoked.rows[0].revoked_at };
    }
    const existing = await tx.query<{ revoked_at: Date }>('SELECT revoked_at FROM api_keys WHERE kid = $1', [kid]);
    if (existing.rows[0])
      throw new KeyCommandError(`kid ${kid} was already revoked at ${existing.rows[0].revoked_at.toISOString()}`);
    throw new KeyCommandError(`unknown kid ${kid}`);
  });
  directory?.invalidate();
  return result;
}
