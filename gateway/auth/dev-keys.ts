// DEVELOPMENT ONLY. The seeded dev key pairs live in seeds/dev-keys/: their private halves
// are committed to this repository, so anyone can sign tokens with them. They exist so a
// fresh checkout can mint a token against the seeded directory; never register them in a
// real deployment (see seeds/dev-keys/README.md).
import { join } from 'node:path';
import { packagePath } from '../../contracts/package-root';

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
