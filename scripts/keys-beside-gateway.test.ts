import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTemporaryDirectory } from '../shared/testing/temporary-directory';
import { generateKeyPairSync } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startTestGateway, type TestGateway } from '../gateway/testing/test-gateway';
import { createInternalApi } from '../gateway/internal-api/internal-api';
import { createLocalAddressValidator } from '../gateway/address/local-address-validator';
import { mintToken } from '../gateway/auth/mint-token';
import { V3_2 } from '../gateway/app';
import { runKeysCommand } from './keys';
import { httpKeysBackend, type KeysBackend } from './keys-backend';
import { listen, type Listening } from '../shared/http/listen';

// `npm run keys` beside a running gateway: through the internal API's /internal/keys (its
// credential), into the store the gateway holds, and the gateway's directory in the same
// process is invalidated, so a new key works at the very next request and a revoked one stops.

const TOKEN = 'keys-beside-gateway-test-token';
let gw: TestGateway;
let server: Listening;
let url: string;
const dir = useTemporaryDirectory('keys-http');
const { publicKey, privateKey } = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
});

beforeAll(async () => {
  gw = await startTestGateway();
  const internal = createInternalApi({
    store: gw.store,
    directory: gw.directory,
    addressValidator: createLocalAddressValidator(),
    config: { token: TOKEN },
    log: () => {},
  });
  server = await listen(internal.fetch);
  url = server.url;
  await writeFile(join(dir.path, 'buyer.pem'), publicKey);
});
afterAll(async () => {
  await server.close();
  await gw.close();
});

async function keys(backend: KeysBackend, ...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runKeysCommand(argv, { backend, out: (l) => out.push(l), err: (l) => err.push(l), cwd: dir.path });
  return { code, out, err };
}

async function inquireWithNewKey(kid: string) {
  const token = await mintToken({ privateKey, kid, issuer: 'acme-buyer', subject: 'demo' });
  return (
    await gw.post(`${V3_2}/item_inquiry`, { items: [{ id: '1', mfr_code: 'WIX', part_number: '51515' }] }, { token })
  ).status;
}

describe('npm run keys through the internal API', () => {
  it('adds a key the running gateway accepts at once, lists it, and a revocation stops it at once', async () => {
    const backend = httpKeysBackend(url, TOKEN);
    expect(await inquireWithNewKey('acme-1')).toBe(401); // unknown kid; the directory has looked it up

    const added = await keys(
      backend,
      'add',
      '--client',
      'acme-buyer',
      '--kid',
      'acme-1',
      '--public-key',
      'buyer.pem',
      '--user',
      'demo',
    );
    expect(added).toMatchObject({
      code: 0,
      out: ['registered RS256 key acme-1 for new client acme-buyer (acts for: demo)'],
    });
    expect(await inquireWithNewKey('acme-1')).toBe(200);

    const listed = await keys(backend, 'list', '--json');
    const entry = (JSON.parse(listed.out[0]) as { kid: string; active: boolean; linkedUsernames: string[] }[]).find(
      (k) => k.kid === 'acme-1',
    );
    expect(entry).toMatchObject({ active: true, linkedUsernames: ['demo'] });

    const revoked = await keys(backend, 'revoke', '--kid', 'acme-1');
    expect(revoked.code).toBe(0);
    expect(revoked.out[0]).toMatch(/^revoked key acme-1 at \d{4}-/);
    expect(await inquireWithNewKey('acme-1')).toBe(401);
    const table = await keys(backend, 'list');
    expect(table.out.find((line) => line.startsWith('acme-1'))).toMatch(/revoked \d{4}-/);
  });

  it("reports the directory's refusal as the store would (exit 1)", async () => {
    const result = await keys(
      httpKeysBackend(url, TOKEN),
      'add',
      '--client',
      'acme-buyer',
      '--kid',
      'acme-2',
      '--public-key',
      'buyer.pem',
      '--user',
      'nobody-such',
    );
    expect(result.code).toBe(1);
    expect(result.err[0]).toContain('nobody-such');
  });

  it('refuses without the internal credential', async () => {
    const result = await keys(httpKeysBackend(url, 'wrong-credential-0123456789'), 'list');
    expect(result.code).toBe(1);
    expect(result.err[0]).toContain('answered 401');
  });

  it('rejects with ECONNREFUSED when nothing listens, so the command falls back to the store', async () => {
    const closed = httpKeysBackend('http://127.0.0.1:9', TOKEN);
    await expect(closed.list()).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });
});
