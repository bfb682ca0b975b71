import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { readFile } from 'node:fs/promises';
import { importPKCS8, SignJWT } from 'jose';
import type { Store } from '../store/store';
import { createTestStore } from '../testing/test-store';
import { createLocalAddressValidator } from '../address/local-address-validator';
import { DEV_KEYS } from '../auth/dev-keys';
import { createInternalApi } from './internal-api';
import { DEV_INTERNAL_API_TOKEN, internalApiConfigFromEnv } from './internal-api-config';
import { validCreateUserRequest } from '../testing/create-user-request';

let store: Store;
let app: ReturnType<typeof createInternalApi>;
beforeAll(async () => {
  store = await createTestStore();
  app = createInternalApi({
    store,
    addressValidator: createLocalAddressValidator(),
    config: { token: 'a-long-internal-service-token' },
    log: () => {},
  });
});
afterAll(() => store.close());

const create = (authorization?: string) =>
  app.request('/internal/users/create', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
    body: JSON.stringify(validCreateUserRequest()),
  });

describe('internal API credential', () => {
  it('refuses a request without a credential (401), asking for the bearer token', async () => {
    const res = await create();
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="internal"');
    expect(await res.json()).toEqual({
      status_code: 4403,
      message: 'internal API credential required: Authorization: Bearer <INTERNAL_API_TOKEN>',
    });
  });

  it('refuses a wrong token, and one that differs only in its last character', async () => {
    for (const token of ['nope', 'a-long-internal-service-tokem', 'a-long-internal-service-token-and-more']) {
      const res = await create(`Bearer ${token}`);
      expect(res.status, token).toBe(401);
      expect(((await res.json()) as { message: string }).message).toBe('invalid internal API credential');
    }
  });

  it("refuses a valid buyer JWT (the seeded demo client's), naming why", async () => {
    const key = DEV_KEYS['dev-key-1'];
    const jwt = await new SignJWT({ iss: key.clientId, kid: key.kid, aud: 'groupvan', sub: key.username })
      .setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'JWT' })
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(await importPKCS8(await readFile(key.privateKeyFile, 'utf8'), 'RS256'));
    const res = await create(`Bearer ${jwt}`);
    expect(res.status).toBe(401);
    expect(((await res.json()) as { message: string }).message).toMatch(/buyer tokens are not accepted/);
    expect((await store.query('SELECT 1 FROM users WHERE username = $1', ['nina'])).rows).toEqual([]);
  });

  it('lets the service credential through', async () => {
    const res = await create('Bearer a-long-internal-service-token');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ username: 'nina' });
  });
});

describe('internal API configuration', () => {
  it('defaults to the documented development token, port 8081 and loopback', () => {
    expect(internalApiConfigFromEnv({})).toEqual({ token: DEV_INTERNAL_API_TOKEN, port: 8081, hostname: '127.0.0.1' });
  });

  it('takes INTERNAL_API_TOKEN, INTERNAL_PORT and INTERNAL_HOST', () => {
    expect(
      internalApiConfigFromEnv({ INTERNAL_API_TOKEN: 'x'.repeat(32), INTERNAL_PORT: '9181', INTERNAL_HOST: '0.0.0.0' }),
    ).toEqual({
      token: 'x'.repeat(32),
      port: 9181,
      hostname: '0.0.0.0',
    });
  });

  it('refuses the development default in production, a short token and a bad port', () => {
    expect(() => internalApiConfigFromEnv({ NODE_ENV: 'production' })).toThrow(/must be set in production/);
    expect(() => internalApiConfigFromEnv({ INTERNAL_API_TOKEN: 'short' })).toThrow(/at least 16/);
    expect(() => internalApiConfigFromEnv({ INTERNAL_PORT: 'eighty' })).toThrow(/INTERNAL_PORT/);
  });
});
