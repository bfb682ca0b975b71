import { createHash, createPublicKey } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Store } from '../store/store';
import { DEV_KEYS_DIR } from './dev-keys';

// The development keys' private halves are public (seeds/dev-keys/), so in production a key
// whose public half is one of theirs proves nothing about who signed. Compared by the key itself
// (SPKI DER), not by kid or PEM text: re-registered under another kid or re-encoded, it is the same key.

/** SHA-256 of a public key's SPKI DER; undefined for a PEM that is not a readable public key. */
function fingerprint(pem: string): string | undefined {
  try {
    return createHash('sha256')
      .update(createPublicKey(pem).export({ type: 'spki', format: 'der' }))
      .digest('hex');
  } catch {
    return undefined;
  }
}

let devFingerprints: ReadonlySet<string> | undefined;

/** Every public key under seeds/dev-keys/, read once. */
function developmentFingerprints(): ReadonlySet<string> {
  devFingerprints ??= new Set(
    readdirSync(DEV_KEYS_DIR)
      .filter((file) => file.endsWith('.public.pem'))
      .map((file) => fingerprint(readFileSync(join(DEV_KEYS_DIR, file), 'utf8')))
      .filter((f): f is string => f !== undefined),
  );
  return devFingerprints;
}

const judged = new Map<string, boolean>();

/** Whether `pem` is the public half of a development key (remembered per PEM: this runs on token verification). */
export function isDevelopmentKey(pem: string): boolean {
  let answer = judged.get(pem);
  if (answer === undefined) {
    const print = fingerprint(pem);
    answer = print !== undefined && developmentFingerprints().has(print);
    if (judged.size < 10_000) judged.set(pem, answer);
  }
  return answer;
}

export interface StoredDevelopmentKey {
  kid: string;
  clientId: string;
}

/** Active keys in the store whose public half is a development key's. */
export async function developmentKeysInStore(store: Pick<Store, 'query'>): Promise<StoredDevelopmentKey[]> {
  const { rows } = await store.query<{ kid: string; client_id: string; public_key_pem: string }>(
    'SELECT kid, client_id, public_key_pem FROM api_keys WHERE active ORDER BY client_id, kid',
  );
  return rows
    .filter((row) => isDevelopmentKey(row.public_key_pem))
    .map((row) => ({ kid: row.kid, clientId: row.client_id }));
}

/** The command that takes a development key out of service. */
export const revokeCommand = (kid: string): string => `npm run keys -- revoke --kid ${kid}`;
