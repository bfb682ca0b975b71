// DEVELOPMENT ONLY. The seeded dev key pairs live in seeds/dev-keys/: their private halves
// are committed to this repository, so anyone can sign tokens with them. They exist so a
// fresh checkout can mint a token against the seeded directory; never register them in a
// real deployment (see seeds/dev-keys/README.md).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { mintToken, type MintOptions } from './mint-token';
import { packagePath } from '../../shared/package-root';

export const DEV_KEYS_DIR = packagePath('seeds', 'dev-keys');

export interface DevKey {
  kid: string;
  clientId: string;
  username: string;
  privateKeyFile: string;
  publicKeyFile: string;
}

function devKey(kid: string, clientId: string, username: string): DevKey {
  return {
    kid,
    clientId,
    username,
    privateKeyFile: join(DEV_KEYS_DIR, `${kid}.private.pem`),
    publicKeyFile: join(DEV_KEYS_DIR, `${kid}.public.pem`),
  };
}

/** DEVELOPMENT ONLY keys, by kid. */
export const DEV_KEYS = {
  'dev-key-1': devKey('dev-key-1', 'dev-buyer-system', 'demo'),
  'dev-key-2': devKey('dev-key-2', 'dev-other-system', 'other'),
} as const;

const privateKeys = new Map<string, Promise<string>>();

/**
 * DEVELOPMENT ONLY: a production-style token signed with a seeded dev key, for its user
 * unless `overrides` say otherwise. The one way tests, benches and examples get a token.
 */
export async function mintDevToken(
  kid: keyof typeof DEV_KEYS = 'dev-key-1',
  overrides: Partial<MintOptions> = {},
): Promise<string> {
  const key = DEV_KEYS[kid];
  let pem = privateKeys.get(key.kid);
  if (pem === undefined) privateKeys.set(key.kid, (pem = readFile(key.privateKeyFile, 'utf8')));
  return mintToken({ privateKey: await pem, kid: key.kid, issuer: key.clientId, subject: key.username, ...overrides });
}
