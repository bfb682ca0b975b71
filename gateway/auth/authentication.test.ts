import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKeyPairSync } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { SignJWT } from 'jose';
import { startTestGateway, type TestGateway } from '../testing/test-gateway';
import { afterDirectorySignal } from '../testing/after-directory-signal';
import { registerKey, revokeKey } from '../directory/api-keys';
import { DEV_KEYS } from './dev-keys';
import { createGateway, V3_2 } from '../app';
import { gatewayConfig } from '../gateway-config';
import { createTokenVerifier } from './token-verifier';

// Every refusal is HTTP 401 with overall code 4403 and a reason a developer can act on.

const INQUIRY = `${V3_2}/item_inquiry`;
const BODY = {
  items: [{ id: '1', mfr_code: 'WIX', part_number: '51515' }],
  locations: [{ id: 'L101', member: 'M100', account: 'A-1001' }],
};

let gw: TestGateway;
let now = Date.now();
const clock = () => now;
const nowSeconds = () => Math.floor(now / 1000);

beforeAll(async () => {
  gw = await startTestGateway({ clock });
});
afterAll(() => gw.close());

async function call(authorization: string | undefined, app = gw.app) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (authorization !== undefined) headers.authorization = authorization;
  const response = await app.request(INQUIRY, { method: 'POST', headers, body: JSON.stringify(BODY) });
  return {
    status: response.status,
    body: (await response.json()) as { status_code: number; message: string; items?: unknown[] },
  };
}

async function expectRefused(authorization: string | undefined, reason: RegExp, app = gw.app) {
  const { status, body } = await call(authorization, app);
  expect(status).toBe(401);
  expect(body.status_code).toBe(4403);
  expect(body.message).toMatch(reason);
}

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('authentication', () => {
  it('accepts a token made exactly as the production clients make it', async () => {
    const token = await gw.token('demo');
    const [header, payload] = token
      .split('.')
      .slice(0, 2)
      .map((p) => JSON.parse(Buffer.from(p, 'base64url').toString()));
    expect(header).toEqual({ alg: 'RS256', kid: 'dev-key-1', typ: 'JWT', 'gv-ver': 'GV-JWT-V1' });
    expect(payload.exp - payload.iat).toBe(300);
    expect(payload.aud).toBe('groupvan');
    const { status, body } = await call(`Bearer ${token}`);
    expect(status).toBe(200);
    expect(body.status_code).toBe(2000);
  });

  it('takes the only linked user when sub is left out', async () => {
    const { status } = await call(`Bearer ${await gw.token('demo', { subject: undefined })}`);
    expect(status).toBe(200);
  });

  it('refuses a missing Authorization header', async () => {
    await expectRefused(undefined, /missing Authorization header/);
  });

  it('refuses an Authorization header that is not Bearer', async () => {
    await expectRefused('Basic ZGVtbzpkZW1v', /malformed Authorization header/);
  });

  it('refuses a bearer value that is not a JWT', async () => {
    await expectRefused('Bearer not-a-jwt', /malformed token/);
    await expectRefused('Bearer a.b.c', /malformed token/);
  });

  it('refuses an unknown kid', async () => {
    await expectRefused(
      `Bearer ${await gw.token('demo', { kid: 'no-such-key', header: { kid: 'no-such-key' } })}`,
      /unknown kid 'no-such-key'/,
    );
  });

  it('refuses alg none', async () => {
    const unsigned = `${b64({ alg: 'none', kid: 'dev-key-1', typ: 'JWT' })}.${b64({ iss: 'dev-buyer-system', aud: 'groupvan', sub: 'demo', iat: nowSeconds(), exp: nowSeconds() + 300 })}.`;
    await expectRefused(`Bearer ${unsigned}`, /alg 'none' is refused/);
  });

  it('refuses an HMAC token signed with the public key as secret (algorithm confusion)', async () => {
    const publicPem = await readFile(DEV_KEYS['dev-key-1'].publicKeyFile);
    const forged = await new SignJWT({ iss: 'dev-buyer-system', aud: 'groupvan', sub: 'demo' })
      .setProtectedHeader({ alg: 'HS256', kid: 'dev-key-1', typ: 'JWT' })
      .setIssuedAt(nowSeconds())
      .setExpirationTime(nowSeconds() + 300)
      .sign(new Uint8Array(publicPem));
    await expectRefused(`Bearer ${forged}`, /HMAC algorithms are not accepted \(algorithm confusion\)/);
  });

  it('refuses a token signed with a key other than the registered one', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    await expectRefused(`Bearer ${await gw.token('demo', { privateKey })}`, /bad signature/);
  });

  it('refuses an expired token', async () => {
    await expectRefused(`Bearer ${await gw.token('demo', { issuedAt: nowSeconds() - 1000 })}`, /token expired/);
  });

  it('refuses a token that is not yet valid (nbf or iat in the future beyond the skew)', async () => {
    await expectRefused(`Bearer ${await gw.token('demo', { claims: { nbf: nowSeconds() + 600 } })}`, /not yet valid/);
    await expectRefused(`Bearer ${await gw.token('demo', { issuedAt: nowSeconds() + 600 })}`, /not yet valid/);
  });

  it('tolerates clocks that disagree by less than the skew', async () => {
    const { status } = await call(`Bearer ${await gw.token('demo', { issuedAt: nowSeconds() + 30 })}`);
    expect(status).toBe(200);
  });

  it('refuses the wrong audience', async () => {
    await expectRefused(
      `Bearer ${await gw.token('demo', { audience: 'someone-else' })}`,
      /wrong audience: aud must be 'groupvan'/,
    );
  });

  it('checks aud against the configured value', async () => {
    const app = createGateway({
      store: gw.store,
      directory: gw.directory,
      sellerClient: gw.sellerClient,
      clock,
      config: gatewayConfig({ auth: { audience: 'our-gateway' } }),
      logger: () => {},
    });
    await expectRefused(`Bearer ${await gw.token('demo')}`, /aud must be 'our-gateway'/, app);
    expect((await call(`Bearer ${await gw.token('demo', { audience: 'our-gateway' })}`, app)).status).toBe(200);
  });

  it('refuses an issuer other than the client that registered the key', async () => {
    await expectRefused(
      `Bearer ${await gw.token('demo', { issuer: 'dev-other-system' })}`,
      /wrong issuer: iss must be 'dev-buyer-system'/,
    );
  });

  it('refuses a token without exp', async () => {
    await expectRefused(
      `Bearer ${await gw.token('demo', { claims: { exp: undefined } })}`,
      /exp is required|"exp" claim/,
    );
  });

  it('refuses a lifetime above the limit, which is configurable', async () => {
    await expectRefused(
      `Bearer ${await gw.token('demo', { ttlSeconds: 7200 })}`,
      /lifetime 7200 s exceeds the 3600 s limit/,
    );
    const app = createGateway({
      store: gw.store,
      directory: gw.directory,
      sellerClient: gw.sellerClient,
      clock,
      config: gatewayConfig({ auth: { maxLifetimeSeconds: 120 } }),
      logger: () => {},
    });
    await expectRefused(`Bearer ${await gw.token('demo')}`, /exceeds the 120 s limit/, app);
  });

  it('refuses an unknown user', async () => {
    await expectRefused(`Bearer ${await gw.token('demo', { subject: 'nobody' })}`, /unknown user 'nobody'/);
  });

  it('refuses a user not linked to the client', async () => {
    await expectRefused(
      `Bearer ${await gw.token('demo', { subject: 'other' })}`,
      /user 'other' is not linked to client 'dev-buyer-system'/,
    );
  });

  it('refuses a cached token once it has expired by the clock', async () => {
    const token = await gw.token('demo');
    expect((await call(`Bearer ${token}`)).status).toBe(200);
    now += 10 * 60_000;
    try {
      await expectRefused(`Bearer ${token}`, /token expired/);
    } finally {
      now -= 10 * 60_000;
    }
  });

  it('accepts ES256 keys and stops accepting a key the moment it is revoked', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    await registerKey(
      gw.store,
      {
        clientId: 'dev-buyer-system',
        kid: 'test-es256',
        algorithm: 'ES256',
        publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      },
      gw.directory,
    );
    const token = await gw.token('demo', { privateKey, algorithm: 'ES256', kid: 'test-es256' });
    expect((await call(`Bearer ${token}`)).status).toBe(200);
    await revokeKey(gw.store, 'test-es256', gw.directory);
    await expectRefused(`Bearer ${token}`, /kid 'test-es256' has been revoked/);
  });

  it('refuses a token whose alg differs from the algorithm the key is registered for', async () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    await expectRefused(`Bearer ${await gw.token('demo', { privateKey, algorithm: 'ES256' })}`, /registered for RS256/);
  });
});

describe('verifyFromMemory', () => {
  const verifierOf = () => createTokenVerifier({ directory: gw.directory, clock });

  it('answers a token verified before with the same buyer, without waiting', async () => {
    const verifier = verifierOf();
    const authorization = `Bearer ${await gw.token('demo')}`;
    expect(verifier.verifyFromMemory(authorization)).toBeUndefined();
    const buyer = await verifier.verify(authorization);
    expect(verifier.verifyFromMemory(authorization)).toEqual(buyer);
    expect(verifier.verifyFromMemory(`Bearer ${await gw.token('demo')}x`)).toBeUndefined();
    expect(verifier.verifyFromMemory(undefined)).toBeUndefined();
  });

  it('leaves to verify() a token that has expired, a user not linked, and a revoked key', async () => {
    const verifier = verifierOf();
    const authorization = `Bearer ${await gw.token('demo')}`;
    await verifier.verify(authorization);
    now += 10 * 60_000;
    try {
      expect(verifier.verifyFromMemory(authorization)).toBeUndefined();
    } finally {
      now -= 10 * 60_000;
    }
    const other = `Bearer ${await gw.token('demo', { subject: 'other' })}`;
    await expect(verifier.verify(other)).rejects.toThrow(/not linked/);
    expect(verifier.verifyFromMemory(other)).toBeUndefined();

    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    // The registration's change signal must be back before verify() fills the cache it drops.
    await afterDirectorySignal(gw.store, () =>
      registerKey(
        gw.store,
        {
          clientId: 'dev-buyer-system',
          kid: 'memory-es256',
          algorithm: 'ES256',
          publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
        },
        gw.directory,
      ),
    );
    const es256 = `Bearer ${await gw.token('demo', { privateKey, algorithm: 'ES256', kid: 'memory-es256' })}`;
    await verifier.verify(es256);
    expect(verifier.verifyFromMemory(es256)?.kid).toBe('memory-es256');
    await revokeKey(gw.store, 'memory-es256', gw.directory);
    expect(verifier.verifyFromMemory(es256)).toBeUndefined();
    await gw.directory.findKey('memory-es256');
    // Now in memory again, as revoked: still not answered here.
    expect(verifier.verifyFromMemory(es256)).toBeUndefined();
  });
});
