import { readFile } from 'node:fs/promises';
import { mintToken } from '../../gateway/auth/mint-token';
import { DEV_KEYS } from '../../seeds/dev-keys';

/** A development token for the seeded demo buyer (dev-key-1), valid for an hour: for benches. */
export async function demoBuyerToken(): Promise<string> {
  const dev = DEV_KEYS['dev-key-1'];
  return mintToken({ privateKey: await readFile(dev.privateKeyFile, 'utf8'), kid: dev.kid, issuer: dev.clientId, subject: dev.username, ttlSeconds: 3600 });
}
