import { importPKCS8, SignJWT, type CryptoKey, type KeyObject } from 'jose';

// Tokens made the way the production buyer clients make them (common-codes.md): header kid,
// typ JWT and gv-ver GV-JWT-V1; claims iss, kid, aud, iat and exp = iat + 300. Used by
// `npm run token`, the tests and the benchmark.

export const PRODUCTION_TOKEN_TTL_SECONDS = 300;

export interface MintOptions {
  privateKey: CryptoKey | KeyObject | string;
  algorithm?: 'RS256' | 'ES256';
  kid: string;
  /** The client id the key is registered to. */
  issuer: string;
  /** Buyer username; left out when undefined (a client linked to one user may do so). */
  subject?: string;
  audience?: string;
  ttlSeconds?: number;
  /** Seconds since the epoch; defaults to now. */
  issuedAt?: number;
  /** Extra or overriding claims, for tests of refusals. */
  claims?: Record<string, unknown>;
  /** Extra or overriding header fields. */
  header?: Record<string, unknown>;
}

export async function mintToken(options: MintOptions): Promise<string> {
  const algorithm = options.algorithm ?? 'RS256';
  const key =
    typeof options.privateKey === 'string' ? await importPKCS8(options.privateKey, algorithm) : options.privateKey;
  const iat = options.issuedAt ?? Math.floor(Date.now() / 1000);
  const payload: Record<string, unknown> = {
    iss: options.issuer,
    kid: options.kid,
    aud: options.audience ?? 'groupvan',
    iat,
    exp: iat + (options.ttlSeconds ?? PRODUCTION_TOKEN_TTL_SECONDS),
  };
  if (options.subject !== undefined) payload.sub = options.subject;
  Object.assign(payload, options.claims);
  return new SignJWT(payload)
    .setProtectedHeader({ alg: algorithm, kid: options.kid, typ: 'JWT', 'gv-ver': 'GV-JWT-V1', ...options.header })
    .sign(key);
}
