import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { useTemporaryDirectory } from '../shared/testing/temporary-directory';
import { startTestGateway, type TestGateway } from '../gateway/testing/test-gateway';
import { createInternalApi } from '../gateway/internal-api/internal-api';
import { createLocalAddressValidator } from '../gateway/address/local-address-validator';
import { listen, type Listening } from '../shared/http/listen';
import { V3_2 } from '../gateway/app';
import { runMembersCommand } from './members';
import { httpMembersBackend, storeMembersBackend, type MembersBackend } from './members-backend';

// `npm run members` on both of its backends: beside a running gateway through the internal API
// (the buyer sees a suspension at the very next request), and on the store when nothing runs.
// Exit 0 done, 1 refused (with every problem on stderr), 2 bad usage.

const TOKEN = 'members-command-test-token';
let gw: TestGateway;
let server: Listening;
const dir = useTemporaryDirectory('members-command');

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
  await writeFile(join(dir.path, 'token.txt'), 'seller-issued-token\n');
  await writeFile(join(dir.path, 'broken-map.json'), '{"states": {');
  await writeFile(join(dir.path, 'wrong-map.json'), '{"states": {"part exists": {"mfr_code": 7}}}');
});
afterAll(async () => {
  await server?.close();
  await gw?.close();
});

async function members(backend: MembersBackend, ...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runMembersCommand(argv, {
    backend,
    out: (l) => out.push(l),
    err: (l) => err.push(l),
    cwd: dir.path,
    user: 'ops-cli',
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const backends: [string, () => MembersBackend][] = [
  ['the internal API', () => httpMembersBackend(server.url, TOKEN)],
  ['the store', () => storeMembersBackend(gw.store, { directory: gw.directory })],
];

describe.each(backends)('npm run members through %s', (name, backendOf) => {
  const id = name === 'the store' ? 'M510' : 'M500';

  it('adds a member pending, with its token read from a file and never printed', async () => {
    const added = await members(
      backendOf(),
      'add',
      '--id',
      id,
      '--name',
      'Harbour Parts',
      '--seller-url',
      `${gw.seller.url}/seller`,
      '--token-file',
      'token.txt',
      '--slo',
      'p95<300ms',
      '--json',
    );
    expect(added.code, added.err).toBe(0);
    expect(JSON.parse(added.out)).toMatchObject({
      id,
      status: 'pending',
      sellerAuth: { kind: 'bearer' },
      slos: ['p95<300ms'],
    });
    expect(added.out).not.toContain('seller-issued-token');
    expect((await members(backendOf(), 'list', '--status', 'pending')).out).toContain(`${id}  pending  Harbour Parts`);
    expect(
      (
        await members(
          backendOf(),
          'locations',
          'add',
          '--id',
          id,
          '--location',
          `L${id}`,
          '--description',
          'Pier',
          '--type',
          'warehouse',
        )
      ).code,
    ).toBe(0);
    expect(
      (await members(backendOf(), 'accounts', 'add', '--id', id, '--account', 'A-1', '--description', 'Demo')).code,
    ).toBe(0);
    const shown = await members(backendOf(), 'show', '--id', id);
    expect(shown.out).toContain(`location L${id}  warehouse  Pier`);
    expect(shown.out).toContain('certificate none');
  });

  it('suspends a live member, which the gateway stops serving at once, and reinstates it to pending', async () => {
    const invoice = () => gw.post(`${V3_2}/invoice`, { member: 'M200' }).then((r) => r.status);
    expect(await invoice()).toBe(200);
    const suspended = await members(backendOf(), 'suspend', '--id', 'M200', '--reason', 'seller down');
    expect(suspended).toMatchObject({ code: 0, out: 'M200 is suspended' });
    expect(await invoice()).toBe(403);
    expect((await members(backendOf(), 'reinstate', '--id', 'M200')).out).toBe('M200 is pending');
    const changes = await members(backendOf(), 'changes', '--id', 'M200', '--limit', '2', '--json');
    expect(
      (JSON.parse(changes.out) as { actor: string; action: string }[]).map((c) => `${c.actor} ${c.action}`),
    ).toEqual(['ops-cli member.reinstate', 'ops-cli member.suspend']);
    await gw.store.query("UPDATE members SET status = 'live' WHERE id = 'M200'");
    gw.directory.invalidate();
  });

  it('refuses (exit 1) live by a write, an unknown member, a state map that is not JSON or does not fit', async () => {
    const unknown = await members(backendOf(), 'show', '--id', 'M999');
    expect(unknown).toMatchObject({ code: 1 });
    expect(unknown.err).toContain("unknown member 'M999'");
    const notJson = await members(backendOf(), 'update', '--id', id, '--state-map', 'broken-map.json');
    expect(notJson.code).toBe(1);
    expect(notJson.err).toContain('is not JSON');
    const wrong = await members(backendOf(), 'update', '--id', id, '--state-map', 'wrong-map.json');
    expect(wrong.code).toBe(1);
    expect(wrong.err).toContain('/stateMap/states/part exists/mfr_code');
    const url = await members(backendOf(), 'update', '--id', id, '--seller-url', 'ftp://seller.example/');
    expect(url.code).toBe(1);
    expect(url.err).toContain('[member.seller-url-policy]');
    expect((await members(backendOf(), 'show', '--id', id, '--json')).out).toContain(
      `"sellerUrl":"${gw.seller.url}/seller"`,
    );
  });

  it('answers bad usage with exit 2 and the usage', async () => {
    expect((await members(backendOf(), 'add', '--id', 'M1', '--colour', 'blue')).code).toBe(2);
    expect((await members(backendOf(), 'suspend', '--id', 'M100')).err).toContain('--reason is required');
    expect((await members(backendOf(), 'teleport')).code).toBe(2);
    const help = await members(backendOf(), '--help');
    expect(help.code).toBe(0);
    expect(help.out.split('\n').length).toBeLessThanOrEqual(24);
  });
});
