import { request } from 'undici';
import type { Store } from '../gateway/store/store';
import type { Directory } from '../gateway/directory/directory';
import {
  KeyCommandError,
  listKeys,
  registerKey,
  revokeKey,
  type KeyListing,
  type RegisterKeyInput,
  type RegisteredKey,
} from '../gateway/directory/api-keys';
import type { KeyListingJson } from '../gateway/internal-api/key-routes';

// Where `npm run keys` registers, lists and revokes: the running server's internal API
// (/internal/keys; with the embedded store only that process may open it), or the store
// itself when nothing runs.

export interface KeysBackend {
  readonly description: string;
  register(input: RegisterKeyInput): Promise<RegisteredKey>;
  list(): Promise<KeyListing[]>;
  revoke(kid: string): Promise<{ kid: string; revokedAt: Date }>;
}

export function storeKeysBackend(store: Store, directory?: Directory): KeysBackend {
  return {
    description: 'store',
    register: (input) => registerKey(store, input, directory),
    list: () => listKeys(store),
    revoke: (kid) => revokeKey(store, kid, directory),
  };
}

/** The internal API's /internal/keys routes. Rejects with code ECONNREFUSED when nothing listens. */
export function httpKeysBackend(baseUrl: string, token: string): KeysBackend {
  const call = async <T>(path: string, init: { method: 'GET' | 'POST'; body?: string }): Promise<T> => {
    const res = await request(`${baseUrl}/internal/keys${path}`, {
      ...init,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    });
    const body = (await res.body.json()) as T & { message?: string };
    // The directory's refusals (400) read exactly as they do on the store; anything else names the server.
    if (res.statusCode === 400 || res.statusCode === 404)
      throw new KeyCommandError(body.message ?? `internal API answered ${res.statusCode}`);
    if (res.statusCode >= 300)
      throw new KeyCommandError(`internal API at ${baseUrl} answered ${res.statusCode}: ${body.message ?? ''}`);
    return body;
  };
  return {
    description: `internal API ${baseUrl}`,
    register: (input) => call<RegisteredKey>('', { method: 'POST', body: JSON.stringify(input) }),
    async list() {
      const keys = await call<KeyListingJson[]>('', { method: 'GET' });
      return keys.map((k) => ({
        ...k,
        createdAt: new Date(k.createdAt),
        revokedAt: k.revokedAt === null ? null : new Date(k.revokedAt),
      }));
    },
    async revoke(kid) {
      const revoked = await call<{ kid: string; revokedAt: string }>(`/${encodeURIComponent(kid)}/revoke`, {
        method: 'POST',
      });
      return { kid: revoked.kid, revokedAt: new Date(revoked.revokedAt) };
    },
  };
}
