import {
  decodeProtectedHeader,
  errors as joseErrors,
  importSPKI,
  jwtVerify,
  type CryptoKey,
  type JWTPayload,
} from 'jose';
import type { ApiKey, BuyerUser, Directory, KeyAlgorithm } from '../directory/directory';
import type { Clock } from '../clock';
import { AuthenticationError } from '../errors';
import { isDevelopmentKey, revokeCommand } from './development-key-check';

// Buyer systems sign a short-lived JWT with a key whose public half is registered
// (common-codes.md: RS256, header kid + typ JWT + gv-ver, claims iss, kid, aud, iat, exp).
// Importing a key and checking a signature are the costly parts, so both are cached:
// imported keys by kid and PEM, verified tokens by their exact bytes until they expire.
// Key state (revoked?) and the user are looked up on every request through the directory,
// whose own cache is invalidated on writes, so a revocation takes effect at once.

export interface AuthConfig {
  /** Accepted `aud` values; production clients send `groupvan`. */
  audience: string | string[];
  /** Longest accepted exp - iat, in seconds. */
  maxLifetimeSeconds: number;
  /** Tolerance for clocks that disagree, in seconds. */
  clockSkewSeconds: number;
  /** Production: a key whose public half is a development key's (seeds/dev-keys/) signs nothing. */
  refuseDevelopmentKeys?: boolean;
}

export const DEFAULT_AUTH_CONFIG: AuthConfig = {
  audience: ['groupvan'],
  maxLifetimeSeconds: 3600,
  clockSkewSeconds: 60,
};

export interface AuthenticatedBuyer {
  clientId: string;
  kid: string;
  user: BuyerUser;
}

export interface TokenVerifier {
  /** The buyer behind an `Authorization` header value; throws AuthenticationError with the reason. */
  verify(authorization: string | undefined): Promise<AuthenticatedBuyer>;
  /**
   * The same buyer without waiting, when the token was verified before and the key, the
   * client's links and the user are all in the directory's memory and still pass every check;
   * undefined otherwise (then verify() gives the answer, or the reason for a refusal).
   */
  verifyFromMemory(authorization: string | undefined): AuthenticatedBuyer | undefined;
}

const ACCEPTED_ALGORITHMS = new Set<string>(['RS256', 'ES256']);
const TOKEN_CACHE_LIMIT = 10_000;
const BEARER = /^Bearer[ ]+([^ ]+)[ ]*$/i;

interface VerifiedToken {
  kid: string;
  clientId: string;
  sub: string | undefined;
  /** Seconds since the epoch. */
  exp: number;
  /** The key the signature was checked with: a re-registered kid must verify again. */
  pem: string;
}

const refuse = (reason: string) => new AuthenticationError(reason);

// One judge per rule. A token verified once is judged again on every request, by verify()
// and by verifyFromMemory() alike: both ask the functions below, in the same order, so a rule
// added here binds both paths. Each answers a refusal code (no allocation when the token
// passes); verify() turns the code into the reason it sends, verifyFromMemory() into undefined.
type KeyRefusal = 'unknown-kid' | 'revoked';
type RememberedRefusal = KeyRefusal | 'expired' | 'key-changed';
type UserRefusal = 'ambiguous-user' | 'unknown-user' | 'not-linked';

/** Why a registered key (or its absence) cannot sign tokens; undefined when it is active. */
function keyRefusal(key: ApiKey | undefined): KeyRefusal | undefined {
  if (key === undefined) return 'unknown-kid';
  return key.active ? undefined : 'revoked';
}

/**
 * Why a token verified before no longer passes on its key at `nowMs`; 'key-changed' means verify its signature again.
 */
function rememberedRefusal(
  verified: VerifiedToken,
  key: ApiKey | undefined,
  nowMs: number,
  clockSkewSeconds: number,
): RememberedRefusal | undefined {
  const refusal = keyRefusal(key);
  if (refusal !== undefined) return refusal;
  if (verified.exp + clockSkewSeconds <= nowMs / 1000) return 'expired';
  return key!.publicKeyPem === verified.pem ? undefined : 'key-changed';
}

/**
 * The username a verified token acts for: its sub, or the client's only
 * linked user; undefined if the client acts for several (or none).
 */
function claimedUsername(verified: VerifiedToken, linked: readonly string[]): string | undefined {
  return verified.sub ?? (linked.length === 1 ? linked[0] : undefined);
}

/** Why the token cannot act for `user` (looked up by claimedUsername); undefined when it may. */
function userRefusal(
  username: string | undefined,
  user: BuyerUser | undefined,
  linked: readonly string[],
): UserRefusal | undefined {
  if (username === undefined) return 'ambiguous-user';
  if (user === undefined) return 'unknown-user';
  return linked.includes(username) ? undefined : 'not-linked';
}

function keyReason(refusal: KeyRefusal, kid: string): string {
  return refusal === 'unknown-kid'
    ? `unknown kid '${kid}': no public key is registered under that id`
    : `kid '${kid}' has been revoked: sign with an active key`;
}

const EXPIRED_REASON = 'token expired: mint a new one (exp is in the past)';

function userReason(
  refusal: UserRefusal,
  verified: VerifiedToken,
  username: string | undefined,
  linkedCount: number,
): string {
  switch (refusal) {
    case 'ambiguous-user':
      return `token has no sub and client '${verified.clientId}' acts for ${linkedCount} users: name the buyer user in sub`;
    case 'unknown-user':
      return `unknown user '${username}' (sub)`;
    case 'not-linked':
      return `user '${username}' is not linked to client '${verified.clientId}'`;
  }
}

function headerOf(token: string): { alg?: unknown; kid?: unknown } {
  if (token.split('.').length !== 3) throw refuse('malformed token: a JWT has three base64url parts separated by dots');
  try {
    return decodeProtectedHeader(token);
  } catch {
    throw refuse('malformed token: its header is not base64url-encoded JSON');
  }
}

function checkAlgorithm(alg: unknown): KeyAlgorithm {
  if (typeof alg !== 'string') throw refuse('malformed token: the header has no alg');
  if (alg.toLowerCase() === 'none') throw refuse("alg 'none' is refused: tokens must be signed with RS256 or ES256");
  if (/^HS/i.test(alg))
    throw refuse(
      `alg '${alg}' is refused: HMAC algorithms are not accepted (algorithm confusion); sign with RS256 or ES256`,
    );
  if (!ACCEPTED_ALGORITHMS.has(alg)) throw refuse(`alg '${alg}' is not supported: sign with RS256 or ES256`);
  return alg as KeyAlgorithm;
}

function describeJoseError(error: unknown, key: ApiKey, audience: string[]): string {
  if (error instanceof joseErrors.JWTExpired) return EXPIRED_REASON;
  if (error instanceof joseErrors.JWSSignatureVerificationFailed)
    return `bad signature: the token was not signed with the private key registered as kid '${key.kid}'`;
  if (error instanceof joseErrors.JWTClaimValidationFailed) {
    switch (error.claim) {
      case 'nbf':
        return 'token not yet valid (nbf is in the future)';
      case 'aud':
        return `wrong audience: aud must be ${audience.map((a) => `'${a}'`).join(' or ')}`;
      case 'iss':
        return `wrong issuer: iss must be '${key.clientId}', the client that registered kid '${key.kid}'`;
      case 'exp':
        return 'token has no exp: exp is required';
      default:
        return `claim ${error.claim} is invalid: ${error.message}`;
    }
  }
  if (error instanceof joseErrors.JWTInvalid || error instanceof joseErrors.JWSInvalid)
    return `malformed token: ${error.message}`;
  return `token could not be verified: ${error instanceof Error ? error.message : String(error)}`;
}

/** Imported public keys by kid, re-imported when the kid's PEM changes; a failed import is forgotten. */
function keyImporter(): (key: ApiKey) => Promise<CryptoKey> {
  const importedKeys = new Map<string, { pem: string; key: Promise<CryptoKey> }>();
  return (key) => {
    const cached = importedKeys.get(key.kid);
    if (cached !== undefined && cached.pem === key.publicKeyPem) return cached.key;
    const imported = importSPKI(key.publicKeyPem, key.algorithm);
    imported.catch(() => importedKeys.delete(key.kid));
    importedKeys.set(key.kid, { pem: key.publicKeyPem, key: imported });
    return imported;
  };
}

/** What a token's signature and claims are checked against. */
interface ClaimRules {
  config: AuthConfig;
  audience: string[];
  publicKey: (key: ApiKey) => Promise<CryptoKey>;
}

/** The token's payload once its signature, alg, iss, aud, exp and nbf hold (jose checks those). */
async function verifiedPayload(
  rules: ClaimRules,
  token: string,
  key: ApiKey,
  alg: KeyAlgorithm,
  nowMs: number,
): Promise<JWTPayload> {
  if (alg !== key.algorithm)
    throw refuse(`alg '${alg}' does not match kid '${key.kid}', which is registered for ${key.algorithm}`);
  try {
    const { payload } = await jwtVerify(token, await rules.publicKey(key), {
      algorithms: [key.algorithm],
      issuer: key.clientId,
      audience: rules.audience,
      clockTolerance: rules.config.clockSkewSeconds,
      currentDate: new Date(nowMs),
      requiredClaims: ['exp'],
    });
    return payload;
  } catch (error) {
    throw refuse(describeJoseError(error, key, rules.audience));
  }
}

/** The claims jose does not judge: iat not in the future, a bounded lifetime, kid and sub well formed. */
function checkOwnClaims(config: AuthConfig, payload: JWTPayload, key: ApiKey, nowMs: number): void {
  const now = nowMs / 1000;
  const exp = payload.exp as number;
  if (payload.iat !== undefined && payload.iat > now + config.clockSkewSeconds)
    throw refuse('token not yet valid: iat is in the future (check the caller clock)');
  const issuedAt = payload.iat ?? now;
  if (exp - issuedAt > config.maxLifetimeSeconds) {
    throw refuse(
      `token lifetime ${Math.round(exp - issuedAt)} s exceeds the ${config.maxLifetimeSeconds} s limit: make exp closer to iat`,
    );
  }
  const claimedKid = (payload as { kid?: unknown }).kid;
  if (claimedKid !== undefined && claimedKid !== key.kid)
    throw refuse(`kid claim '${String(claimedKid)}' differs from the header kid '${key.kid}'`);
  if (payload.sub !== undefined && (typeof payload.sub !== 'string' || payload.sub === ''))
    throw refuse('sub must be a buyer username');
}

async function verifySignatureAndClaims(
  rules: ClaimRules,
  token: string,
  key: ApiKey,
  alg: KeyAlgorithm,
  nowMs: number,
): Promise<VerifiedToken> {
  const payload = await verifiedPayload(rules, token, key, alg, nowMs);
  checkOwnClaims(rules.config, payload, key, nowMs);
  return { kid: key.kid, clientId: key.clientId, sub: payload.sub, exp: payload.exp as number, pem: key.publicKeyPem };
}

export function createTokenVerifier(deps: {
  directory: Directory;
  clock: Clock;
  config?: Partial<AuthConfig>;
}): TokenVerifier {
  const { directory, clock } = deps;
  const config = { ...DEFAULT_AUTH_CONFIG, ...deps.config };
  const rules: ClaimRules = {
    config,
    audience: Array.isArray(config.audience) ? config.audience : [config.audience],
    publicKey: keyImporter(),
  };
  const verifiedTokens = new Map<string, VerifiedToken>();

  async function activeKey(kid: unknown): Promise<ApiKey> {
    if (typeof kid !== 'string' || kid === '')
      throw refuse('token header has no kid: set kid to your registered key id');
    const key = await directory.findKey(kid);
    const refusal = keyRefusal(key);
    if (refusal !== undefined) throw refuse(keyReason(refusal, kid));
    // The caller is told no more than that; the log says which key and why.
    if (config.refuseDevelopmentKeys === true && isDevelopmentKey(key!.publicKeyPem)) {
      throw new AuthenticationError(
        `kid '${kid}' is not accepted: sign with a key registered for production`,
        undefined,
        {
          logReason: `kid '${kid}' of client '${key!.clientId}' is a development key (its private half is public, seeds/dev-keys/): refused in production; revoke it with ${revokeCommand(kid)}`,
        },
      );
    }
    return key!;
  }

  function remember(token: string, verified: VerifiedToken) {
    // Oldest-first eviction (Map keeps insertion order) bounds memory under token churn.
    if (verifiedTokens.size >= TOKEN_CACHE_LIMIT) verifiedTokens.delete(verifiedTokens.keys().next().value as string);
    verifiedTokens.set(token, verified);
  }

  async function resolveUser(verified: VerifiedToken): Promise<BuyerUser> {
    const linked = await directory.linkedUsernames(verified.clientId);
    const username = claimedUsername(verified, linked);
    const user = username === undefined ? undefined : await directory.findUser(username);
    const refusal = userRefusal(username, user, linked);
    if (refusal !== undefined) throw refuse(userReason(refusal, verified, username, linked.length));
    return user!;
  }

  async function verify(authorization: string | undefined): Promise<AuthenticatedBuyer> {
    if (authorization === undefined || authorization === '')
      throw refuse('missing Authorization header: send Authorization: Bearer <JWT>');
    const match = BEARER.exec(authorization);
    if (match === null) throw refuse('malformed Authorization header: expected Bearer <JWT>');
    const token = match[1];
    const nowMs = clock();

    let verified = verifiedTokens.get(token);
    if (verified !== undefined) {
      // Signature and claims held when cached; only time and the key's state can change.
      const key = await directory.findKey(verified.kid);
      const refusal = rememberedRefusal(verified, key, nowMs, config.clockSkewSeconds);
      if (refusal === 'unknown-kid' || refusal === 'revoked') throw refuse(keyReason(refusal, verified.kid));
      if (refusal !== undefined) verifiedTokens.delete(token);
      if (refusal === 'expired') throw refuse(EXPIRED_REASON);
      if (refusal === 'key-changed') verified = undefined;
    }
    if (verified === undefined) {
      const header = headerOf(token);
      const alg = checkAlgorithm(header.alg);
      const key = await activeKey(header.kid);
      verified = await verifySignatureAndClaims(rules, token, key, alg, nowMs);
      remember(token, verified);
    }
    return { clientId: verified.clientId, kid: verified.kid, user: await resolveUser(verified) };
  }

  const memory = { directory, verifiedTokens, clock, skewSeconds: config.clockSkewSeconds };
  return { verify, verifyFromMemory: (authorization) => rememberedBuyer(authorization, memory) };
}

/** The buyer of a token verified before, from memory alone (no await); undefined when only verify() can answer. */
function rememberedBuyer(
  authorization: string | undefined,
  memory: { directory: Directory; verifiedTokens: Map<string, VerifiedToken>; clock: Clock; skewSeconds: number },
): AuthenticatedBuyer | undefined {
  const cached = memory.directory.cached;
  const token = authorization === undefined || cached === undefined ? undefined : BEARER.exec(authorization)?.[1];
  const verified = token === undefined ? undefined : memory.verifiedTokens.get(token);
  if (cached === undefined || verified === undefined) return undefined;
  const key = cached.key(verified.kid);
  if (key === undefined || rememberedRefusal(verified, key.value, memory.clock(), memory.skewSeconds) !== undefined)
    return undefined;
  const linked = cached.linkedUsernames(verified.clientId)?.value;
  if (linked === undefined) return undefined;
  const username = claimedUsername(verified, linked);
  const user = username === undefined ? undefined : cached.user(username);
  // Not in memory (user undefined) or refused: verify() answers, with the reason.
  if (user === undefined || userRefusal(username, user.value, linked) !== undefined) return undefined;
  return { clientId: verified.clientId, kid: verified.kid, user: user.value! };
}
