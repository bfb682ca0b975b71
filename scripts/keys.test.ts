import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useTemporaryDirectory } from '../shared/testing/temporary-directory';
import { generateKeyPairSync } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Store } from '../gateway/store/store';
import { createTestStore } from '../gateway/testing/test-store';
import { createDirectory } from '../gateway/directory/create-directory';
import { DEV_KEYS } from '../gateway/auth/dev-keys';
import { runKeysCommand } from './keys';

let store: Store;
const dir = useTemporaryDirectory('gw-keys');
let out: string[];
let err: string[];
const directory = () => createDirectory(store);

function pemFile(name: string, pem: string) {
  const file = join(dir.path, name);
  return writeFile(file, pem).then(() => file);
}
const rsa = (bits = 2048) =>
  generateKeyPairSync('rsa', {
    modulusLength: bits,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
const ec = (namedCurve: string) =>
  generateKeyPairSync('ec', {
    namedCurve,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });

async function keys(...argv: string[]) {
  out = [];
  err = [];
  return runKeysCommand(argv, { store, out: (l) => out.push(l), err: (l) => err.push(l), cwd: dir.path });
}

beforeAll(async () => {
  store = await createTestStore();
});
afterAll(async () => {
  await store?.close();
});
afterEach(() => {
  out = [];
  err = [];
});

describe('keys add', () => {
  it('registers an RS256 key for a new client acting for a user, visible to the directory', async () => {
    await pemFile('shop.pem', rsa().publicKey);
    expect(
      await keys('add', '--client', 'shop-system', '--kid', 'shop-1', '--public-key', 'shop.pem', '--user', 'demo'),
    ).toBe(0);
    expect(out.join('\n')).toContain('registered RS256 key shop-1 for new client shop-system (acts for: demo)');
    const d = directory();
    expect(await d.findKey('shop-1')).toMatchObject({ clientId: 'shop-system', algorithm: 'RS256', active: true });
    expect(await d.linkedUsernames('shop-system')).toEqual(['demo']);
  });

  it('registers an ES256 P-256 key and a second key for an existing client without --user', async () => {
    await pemFile('ec.pem', ec('prime256v1').publicKey);
    expect(
      await keys(
        'add',
        '--client',
        'ec-system',
        '--kid',
        'ec-1',
        '--public-key',
        'ec.pem',
        '--user',
        'other',
        '--algorithm',
        'ES256',
      ),
    ).toBe(0);
    await pemFile('ec2.pem', ec('prime256v1').publicKey);
    expect(
      await keys('add', '--client', 'ec-system', '--kid', 'ec-2', '--public-key', 'ec2.pem', '--algorithm', 'es256'),
    ).toBe(0);
    expect(out.join('\n')).toContain('for client ec-system (acts for: other)');
    expect(await directory().findKey('ec-2')).toMatchObject({ clientId: 'ec-system', algorithm: 'ES256' });
  });

  it.each([
    [
      'an EC key declared RS256',
      () => ec('prime256v1').publicKey,
      'RS256',
      /RS256 needs an RSA public key; this one is ec/,
    ],
    [
      'an RSA key declared ES256',
      () => rsa().publicKey,
      'ES256',
      /ES256 needs an EC P-256 public key; this one is rsa/,
    ],
    ['a P-384 key declared ES256', () => ec('secp384r1').publicKey, 'ES256', /EC P-256.*secp384r1/],
    ['a 1024-bit RSA key', () => rsa(1024).publicKey, 'RS256', /1024 bits; RS256 keys must have at least 2048/],
    ['a private key', () => rsa().privateKey, 'RS256', /PRIVATE key: register only the public half/],
    ['text that is not a PEM', () => 'hello', 'RS256', /not a readable public key PEM/],
  ])('refuses %s with a clear message and exit code 1', async (_, pem, algorithm, message) => {
    await pemFile('bad.pem', pem());
    const code = await keys(
      'add',
      '--client',
      'bad-system',
      '--kid',
      'bad-1',
      '--public-key',
      'bad.pem',
      '--user',
      'demo',
      '--algorithm',
      algorithm,
    );
    expect(code).toBe(1);
    expect(err.join('\n')).toMatch(message);
    expect(await directory().findKey('bad-1')).toBeUndefined();
  });

  it('refuses an unknown user and leaves no half-created client behind', async () => {
    await pemFile('k.pem', rsa().publicKey);
    expect(
      await keys('add', '--client', 'ghost-system', '--kid', 'ghost-1', '--public-key', 'k.pem', '--user', 'nobody'),
    ).toBe(1);
    expect(err.join('\n')).toContain('unknown user nobody');
    const { rows } = await store.query("SELECT id FROM api_clients WHERE id = 'ghost-system'");
    expect(rows).toEqual([]);
  });

  it('refuses a new client without --user', async () => {
    await pemFile('k.pem', rsa().publicKey);
    expect(await keys('add', '--client', 'lonely-system', '--kid', 'lonely-1', '--public-key', 'k.pem')).toBe(1);
    expect(err.join('\n')).toContain(
      'client lonely-system is new: name the buyer user it acts for (--user <username>)',
    );
  });

  it('refuses a kid already registered', async () => {
    await pemFile('k.pem', rsa().publicKey);
    expect(await keys('add', '--client', 'dev-buyer-system', '--kid', 'dev-key-1', '--public-key', 'k.pem')).toBe(1);
    expect(err.join('\n')).toContain('kid dev-key-1 is already registered (client dev-buyer-system)');
  });

  it('reports a missing file and missing options as such', async () => {
    expect(await keys('add', '--client', 'c', '--kid', 'k', '--public-key', 'missing.pem', '--user', 'demo')).toBe(1);
    expect(err.join('\n')).toMatch(/cannot read --public-key .*missing\.pem: ENOENT/);
    expect(await keys('add', '--client', 'c', '--public-key', 'missing.pem')).toBe(2);
    expect(err.join('\n')).toContain('--kid is required');
    expect(await keys('add', '--client', 'c', '--kid', 'k', '--public-key', 'x', '--algorithm', 'HS256')).toBe(2);
    expect(err.join('\n')).toContain('--algorithm must be RS256 or ES256, not HS256');
    expect(await keys('rotate')).toBe(2);
    expect(err.join('\n')).toContain('unknown command rotate');
  });
});

describe('keys list and revoke', () => {
  it('lists the seeded dev keys with their clients and users', async () => {
    expect(await keys('list', '--json')).toBe(0);
    const listed = JSON.parse(out[0]) as {
      kid: string;
      clientId: string;
      active: boolean;
      linkedUsernames: string[];
    }[];
    for (const key of Object.values(DEV_KEYS)) {
      expect(listed).toContainEqual(
        expect.objectContaining({ kid: key.kid, clientId: key.clientId, linkedUsernames: [key.username] }),
      );
    }
    expect(await keys('list')).toBe(0);
    expect(out[0]).toMatch(/^KID\s+CLIENT\s+ALG\s+STATE\s+USERS$/);
    expect(out.some((line) => /^dev-key-1\s+dev-buyer-system\s+RS256\s+active\s+demo$/.test(line))).toBe(true);
  });

  it('revokes a key: the directory serves it inactive at once, list shows it revoked, a second revoke is refused', async () => {
    const d = directory();
    expect((await d.findKey('dev-key-1'))?.active).toBe(true);
    const code = await runKeysCommand(['revoke', '--kid', 'dev-key-1'], {
      store,
      directory: d,
      out: (l) => out.push(l),
      err: (l) => err.push(l),
    });
    expect(code).toBe(0);
    expect(out.join('\n')).toMatch(/^revoked key dev-key-1 at \d{4}-/);
    expect((await d.findKey('dev-key-1'))?.active).toBe(false);
    await keys('list');
    expect(out.some((line) => /^dev-key-1\s+dev-buyer-system\s+RS256\s+revoked \d{4}-/.test(line))).toBe(true);
    expect(await keys('revoke', '--kid', 'dev-key-1')).toBe(1);
    expect(err.join('\n')).toMatch(/kid dev-key-1 was already revoked at/);
  });

  it('refuses to revoke an unknown kid', async () => {
    expect(await keys('revoke', '--kid', 'never-was')).toBe(1);
    expect(err.join('\n')).toContain('unknown kid never-was');
  });
});
