import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHttpAddressValidator } from './http-address-validator';
import { AddressServiceUnavailable, type PostalAddress } from './address-validator';
import { addressValidatorFromEnv } from './address-validator-from-env';
import type { Listening } from '../../shared/http/listen';
import {
  bothLeftToStandIn,
  DEADLINE_MS,
  LATE_MS,
  LATE_PATHS,
  listenLate,
  STAND_IN_FAILURES,
  withStandInGlobalDispatcher,
} from '../../shared/testing/late-replies';

// A provider on loopback: answers by the street it is asked about.
let server: Server;
let base: string;
const seen: { auth?: string; body: unknown }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      const body = JSON.parse(raw) as PostalAddress;
      seen.push({ auth: req.headers.authorization, body });
      const reply = (status: number, payload: string) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(payload);
      if (body.address === 'slow') return setTimeout(() => reply(200, '{"valid":true}'), 1_500);
      if (body.address === 'broken') return reply(500, '{}');
      if (body.address === 'garbled') return reply(200, '{"valid":"yes"}');
      if (body.address.startsWith('1 '))
        return reply(
          200,
          JSON.stringify({ valid: true, standardized: { ...body, address: body.address.toUpperCase() } }),
        );
      reply(200, JSON.stringify({ valid: false, problems: [{ field: 'address', message: 'no such delivery point' }] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/verify`;
});
afterAll(
  () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
);

const address = (street: string): PostalAddress => ({
  address: street,
  city: 'Springfield',
  state: 'IL',
  zip: '62701',
});

describe('HTTP address provider adapter', () => {
  it("accepts what the provider accepts and keeps the provider's standardized form", async () => {
    const validator = createHttpAddressValidator({ url: base, token: 'provider-secret' });
    expect(await validator.validate(address('1 Main St'))).toEqual({
      valid: true,
      standardized: { ...address('1 Main St'), address: '1 MAIN ST' },
    });
    expect(seen.at(-1)).toEqual({ auth: 'Bearer provider-secret', body: address('1 Main St') });
  });

  it("refuses what the provider refuses, with the provider's reasons", async () => {
    const validator = createHttpAddressValidator({ url: base });
    expect(await validator.validate(address('2 Nowhere Rd'))).toEqual({
      valid: false,
      problems: [{ field: 'address', message: 'no such delivery point' }],
    });
  });

  it('reports the service unavailable on an HTTP error, a malformed reply, a timeout and a closed port', async () => {
    const validator = createHttpAddressValidator({ url: base });
    await expect(validator.validate(address('broken'))).rejects.toThrow(/HTTP 500/);
    await expect(validator.validate(address('garbled'))).rejects.toThrow(/broke the contract: \/valid/);
    // The provider answers after 1.5 s; the deadline is 300 ms.
    const impatient = createHttpAddressValidator({ url: base, timeoutMs: 300 });
    await expect(impatient.validate(address('slow'))).rejects.toThrow(/unreachable/);
    const closed = createHttpAddressValidator({ url: 'http://127.0.0.1:1/verify' });
    await expect(closed.validate(address('1 Main St'))).rejects.toBeInstanceOf(AddressServiceUnavailable);
  });

  it('is chosen by ADDRESS_VALIDATOR=http with its URL; local is the default', async () => {
    expect(addressValidatorFromEnv({}).name).toBe('local');
    const http = addressValidatorFromEnv({ ADDRESS_VALIDATOR: 'http', ADDRESS_VALIDATOR_URL: base });
    expect(http.name).toMatch(/^http 127\.0\.0\.1:/);
    expect((await http.validate(address('2 Nowhere Rd'))).valid).toBe(false);
    expect(() => addressValidatorFromEnv({ ADDRESS_VALIDATOR: 'http' })).toThrow(/ADDRESS_VALIDATOR_URL/);
    expect(() => addressValidatorFromEnv({ ADDRESS_VALIDATOR: 'smarty' })).toThrow(
      "ADDRESS_VALIDATOR must be one of local, http, not 'smarty'",
    );
  });
});

// ADDRESS_VALIDATOR_TIMEOUT_MS has no ceiling: undici's own 300 s timeouts must not end a longer
// one first (shared/testing/late-replies.ts: undici's defaults stand in at 300 ms, the provider
// answers 2 s late).
describe('undici timeouts under ADDRESS_VALIDATOR_TIMEOUT_MS', () => {
  const verdict = JSON.stringify({ valid: true });
  const good = address('1 Main St');
  let late: Listening;
  beforeAll(async () => {
    late = await listenLate(verdict);
  });
  afterAll(() => late.close());

  it('the stand-in fails both late replies for a request left to it (the test can see the fault)', async () => {
    expect(await bothLeftToStandIn(late.url)).toEqual(STAND_IN_FAILURES);
  });

  it(`takes a verdict ${LATE_MS} ms late under a ${DEADLINE_MS} ms timeout, headers or body late`, async () => {
    const checks = await withStandInGlobalDispatcher(() =>
      Promise.all(
        LATE_PATHS.map((path) =>
          createHttpAddressValidator({ url: `${late.url}${path}`, timeoutMs: DEADLINE_MS }).validate(good),
        ),
      ),
    );
    expect(checks).toEqual([
      { valid: true, standardized: good },
      { valid: true, standardized: good },
    ]);
  });
});
