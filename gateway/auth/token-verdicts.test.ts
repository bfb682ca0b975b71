import { describe, expect, it } from 'vitest';
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import type { ApiKey, BuyerUser, Directory } from '../directory/directory';
import { mintToken, type MintOptions } from './mint-token';
import {
  createTokenVerifier,
  DEFAULT_AUTH_CONFIG,
  type AuthenticatedBuyer,
  type TokenVerifier,
} from './token-verifier';

// verify() and verifyFromMemory() must judge every token alike: when the directory has all it
// needs in memory, the fast path answers the same buyer the full path does, and nothing where
// the full path refuses. Each case warms the verifier (a first verify), changes the world, then
// asks both.

const START_MS = 1_800_000_000_000;
const START_S = START_MS / 1000;
const SKEW = DEFAULT_AUTH_CONFIG.clockSkewSeconds;
const TTL = 300;
const CLIENT = 'buyer-system';

const es256 = () => generateKeyPairSync('ec', { namedCurve: 'P-256' });
const signing = es256();
const stranger = es256();
const pemOf = (key: KeyObject) => key.export({ type: 'spki', format: 'pem' }).toString();

const userNamed = (username: string, id: number): BuyerUser => ({
  id,
  username,
  email: `${username}@example.test`,
  terminalPin: null,
  accountId: 'A-1',
  locations: [],
});

/** A directory held in maps, every look-up answerable from memory, so the fast path can always answer. */
function memoryWorld() {
  const keys = new Map<string, ApiKey>([
    ['k1', { kid: 'k1', clientId: CLIENT, algorithm: 'ES256', publicKeyPem: pemOf(signing.publicKey), active: true }],
  ]);
  const links = new Map<string, string[]>([[CLIENT, ['demo']]]);
  const users = new Map<string, BuyerUser>([
    ['demo', userNamed('demo', 1)],
    ['other', userNamed('other', 2)],
  ]);
  const directory: Directory = {
    findKey: async (kid) => keys.get(kid),
    linkedUsernames: async (clientId) => links.get(clientId) ?? [],
    findUser: async (username) => users.get(username),
    findLocation: async () => undefined,
    findMember: async () => undefined,
    findAccount: async () => undefined,
    invalidate: () => undefined,
    cached: {
      key: (kid) => ({ value: keys.get(kid) }),
      linkedUsernames: (clientId) => ({ value: links.get(clientId) ?? [] }),
      user: (username) => ({ value: users.get(username) }),
      member: () => ({ value: undefined }),
    },
  };
  let now = START_MS;
  const verifier = createTokenVerifier({ directory, clock: () => now });
  return { keys, links, users, verifier, setNow: (ms: number) => (now = ms) };
}

type World = ReturnType<typeof memoryWorld>;

interface Case {
  name: string;
  token?: Partial<MintOptions>;
  /** A raw Authorization value instead of a minted token. */
  authorization?: string;
  /** What changes between the first verify and the comparison. */
  change?: (world: World) => void;
  /** The full path's refusal; undefined when the token is accepted. */
  refused?: RegExp;
}

const CASES: Case[] = [
  { name: 'accepted, sub names a linked user', token: { subject: 'demo' } },
  { name: 'accepted, no sub and one linked user', token: { subject: undefined } },
  { name: 'accepted one ms before exp + skew', change: (w) => w.setNow((START_S + TTL + SKEW) * 1000 - 1) },
  { name: 'expired at exp + skew', change: (w) => w.setNow((START_S + TTL + SKEW) * 1000), refused: /token expired/ },
  { name: 'expired long ago', change: (w) => w.setNow(START_MS + 3_600_000), refused: /token expired/ },
  { name: 'revoked key', change: (w) => (w.keys.get('k1')!.active = false), refused: /kid 'k1' has been revoked/ },
  { name: 'key removed', change: (w) => w.keys.delete('k1'), refused: /unknown kid 'k1'/ },
  {
    name: 'kid registered again with another key',
    change: (w) => w.keys.set('k1', { ...w.keys.get('k1')!, publicKeyPem: pemOf(stranger.publicKey) }),
    refused: /bad signature/,
  },
  {
    name: 'user no longer linked',
    change: (w) => w.links.set(CLIENT, ['other']),
    refused: /user 'demo' is not linked/,
  },
  { name: 'user removed', change: (w) => w.users.delete('demo'), refused: /unknown user 'demo'/ },
  {
    name: 'no sub and the client now acts for two users',
    token: { subject: undefined },
    change: (w) => w.links.set(CLIENT, ['demo', 'other']),
    refused: /acts for 2 users/,
  },
  { name: 'sub names a user not linked', token: { subject: 'other' }, refused: /user 'other' is not linked/ },
  { name: 'sub names an unknown user', token: { subject: 'ghost' }, refused: /unknown user 'ghost'/ },
  { name: 'not yet valid (iat in the future)', token: { issuedAt: START_S + SKEW + 10 }, refused: /not yet valid/ },
  {
    name: 'not yet valid (nbf in the future)',
    token: { claims: { nbf: START_S + SKEW + 10 } },
    refused: /not yet valid/,
  },
  { name: 'unknown kid', token: { kid: 'nope' }, refused: /unknown kid 'nope'/ },
  { name: 'bad signature', token: { privateKey: stranger.privateKey }, refused: /bad signature/ },
  { name: 'wrong audience', token: { audience: 'elsewhere' }, refused: /wrong audience/ },
  { name: 'wrong issuer', token: { issuer: 'someone-else' }, refused: /wrong issuer/ },
  {
    name: 'lifetime over the limit',
    token: { ttlSeconds: DEFAULT_AUTH_CONFIG.maxLifetimeSeconds + 1 },
    refused: /exceeds/,
  },
  { name: 'kid claim differs from the header', token: { claims: { kid: 'k2' } }, refused: /kid claim 'k2' differs/ },
  { name: 'malformed token', authorization: 'Bearer a.b.c', refused: /malformed token/ },
  { name: 'not a Bearer header', authorization: 'Basic ZGVtbzpkZW1v', refused: /malformed Authorization header/ },
];

async function fullVerdict(
  verifier: TokenVerifier,
  authorization: string,
): Promise<{ buyer?: AuthenticatedBuyer; reason?: string }> {
  return verifier.verify(authorization).then(
    (buyer) => ({ buyer }),
    (error: Error) => ({ reason: error.message }),
  );
}

describe('verify() and verifyFromMemory() give the same verdict', () => {
  it.each(CASES)('$name', async (c) => {
    const world = memoryWorld();
    const token = await mintToken({
      privateKey: signing.privateKey,
      algorithm: 'ES256',
      kid: 'k1',
      issuer: CLIENT,
      subject: 'demo',
      issuedAt: START_S,
      ttlSeconds: TTL,
      ...c.token,
    });
    const authorization = c.authorization ?? `Bearer ${token}`;
    await fullVerdict(world.verifier, authorization); // warms the verifier when the token passes
    c.change?.(world);

    const fastBefore = world.verifier.verifyFromMemory(authorization);
    const full = await fullVerdict(world.verifier, authorization);
    const fastAfter = world.verifier.verifyFromMemory(authorization);

    if (c.refused === undefined) {
      expect(full.reason).toBeUndefined();
      expect(full.buyer?.user.username).toBe('demo');
      expect(fastBefore).toEqual(full.buyer);
      expect(fastAfter).toEqual(full.buyer);
    } else {
      expect(full.reason).toMatch(c.refused);
      expect(fastBefore).toBeUndefined();
      expect(fastAfter).toBeUndefined();
    }
  });
});
