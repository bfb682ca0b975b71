import { generateKeyPairSync } from 'node:crypto';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileValidator } from '../../contracts/validator';
import { MAX_ID_LENGTH, MAX_NAME_LENGTH, MAX_PEM_LENGTH } from '../../contracts/schemas/common';
import { RegisterKeyRequest } from '../api-reference/internal-api-shapes';
import { createTestStore } from '../testing/test-store';
import type { Store } from '../store/store';
import { internalErrorResponse } from './internal-api-errors';
import { keyRoutes } from './key-routes';

// The register-key route checks its body by hand; its OpenAPI schema (RegisterKeyRequest) must
// say the same, so that input generated from the document is refused only where the document
// says it will be. Each field, one past its bound: the route answers 400 naming it, the schema
// refuses it; at its bound both accept it.

const publicKeyPem = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({
  type: 'spki',
  format: 'pem',
}) as string;
const valid = () => ({
  clientId: 'bounds-client',
  kid: `kid-${Math.random().toString(36).slice(2)}`,
  publicKeyPem,
  algorithm: 'ES256',
  usernames: ['demo'],
  clientName: 'Bounds',
});
const schemaCheck = compileValidator(RegisterKeyRequest);

let store: Store;
let app: Hono;
beforeAll(async () => {
  store = await createTestStore();
  app = new Hono()
    .route('/keys', keyRoutes({ store }))
    .onError((error, c) => internalErrorResponse(error, c, () => {}));
});
afterAll(() => store.close());

const register = (body: unknown) =>
  app.request('/keys', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

const FIELDS: { path: string; max: number; set: (body: Record<string, unknown>, value: string) => void }[] = [
  { path: '/clientId', max: MAX_ID_LENGTH, set: (b, v) => (b.clientId = v) },
  { path: '/kid', max: MAX_ID_LENGTH, set: (b, v) => (b.kid = v) },
  { path: '/usernames/0', max: MAX_ID_LENGTH, set: (b, v) => (b.usernames = [v]) },
  { path: '/clientName', max: MAX_NAME_LENGTH, set: (b, v) => (b.clientName = v) },
  { path: '/publicKeyPem', max: MAX_PEM_LENGTH, set: (b, v) => (b.publicKeyPem = v) },
];

describe('POST /internal/keys and its documented schema', () => {
  for (const field of FIELDS) {
    it(`refuse ${field.path} one character past ${field.max}, and a NUL in it, at the same path`, async () => {
      for (const bad of ['k'.repeat(field.max + 1), 'a\u0000b']) {
        const body = valid();
        field.set(body, bad);
        const reply = await register(body);
        expect(reply.status).toBe(400);
        const { errors } = (await reply.json()) as { errors: { path: string }[] };
        expect(errors.map((e) => e.path)).toContain(field.path);
        const checked = schemaCheck(body);
        expect(checked.valid).toBe(false);
        expect(checked.errors.map((e) => e.path)).toContain(field.path);
      }
    });
  }

  it('accept every identifier and name at its bound', async () => {
    const body = valid();
    for (const field of FIELDS.filter((f) => f.path !== '/publicKeyPem' && f.path !== '/usernames/0'))
      field.set(body, 'k'.repeat(field.max - 1) + '1');
    expect(schemaCheck(body).valid).toBe(true);
    const reply = await register(body);
    expect(reply.status).toBe(201);
  });
});
