// Members as data the operator manages, on every backend: each write is whole or absent, recorded
// with who made it, never makes a member live, and reaches the directory at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import type { Store } from '../store/store';
import { availableTestBackends, createTestStore } from '../testing/test-store';
import { createDirectory } from './create-directory';
import { LIVE_NEEDS_CERTIFICATE, MEMBER_RULES, MemberCommandError, memberWriter, operatorOf } from './members';
import { productionSellerAddresses, resolvedSellerUrlRefusal } from '../seller-client/seller-address-policy';
import { CURRENT_CONTRACT_MAJOR } from '../certification/certification-types';
import { packagePath } from '../../shared/package-root';
import { CONTRACT_VERSION } from '../../contracts/contract-version';

const policy = productionSellerAddresses([]);
// Names resolve here without DNS: seller.example is public, inside.example is on the host's network.
const resolver = async (host: string) =>
  host === 'inside.example' ? [{ address: '10.1.2.3', family: 4 }] : [{ address: '93.184.216.34', family: 4 }];

const newMember = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  name: `Member ${id}`,
  sellerUrl: 'https://seller.example/federated',
  sellerAuth: { kind: 'bearer', token: 'seller-secret-token' },
  integration: `${id}-int`,
  timeoutMs: 4000,
  ...extra,
});

async function refusal(work: Promise<unknown>): Promise<MemberCommandError> {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(MemberCommandError);
  return error as MemberCommandError;
}

describe.each(availableTestBackends())('members on %s', (backend) => {
  let store: Store;
  let writer: ReturnType<typeof memberWriter>;
  const counts = async (id: string) => {
    const { rows } = await store.query<{ members: number; changes: number }>(
      `SELECT (SELECT count(*)::int FROM members WHERE id = $1) AS members,
              (SELECT count(*)::int FROM member_changes WHERE member_id = $1) AS changes`,
      [id],
    );
    return rows[0];
  };
  const allChanges = async () =>
    (await store.query<{ n: number }>('SELECT count(*)::int AS n FROM member_changes')).rows[0].n;

  beforeAll(async () => {
    store = await createTestStore({ backend });
    writer = memberWriter({ store, sellerUrlRefusal: (url) => resolvedSellerUrlRefusal(policy, url, resolver) });
  });
  afterAll(() => store?.close());

  it('creates a member pending, lists and shows it, with its secret neither echoed nor recorded', async () => {
    const created = await writer.create(newMember('M300'), 'ops-anna');
    expect(created).toMatchObject({ id: 'M300', status: 'pending', sellerAuth: { kind: 'bearer' }, timeoutMs: 4000 });
    expect(JSON.stringify(created)).not.toContain('seller-secret-token');
    expect((await writer.list({ status: 'pending' })).map((m) => m.id)).toContain('M300');
    expect((await writer.list({ status: 'live' })).map((m) => m.id)).not.toContain('M300');
    const shown = await writer.show('M300');
    expect(shown).toMatchObject({ locations: [], accounts: [], certificate: null });
    const [change] = await writer.changes('M300');
    expect(change).toMatchObject({ actor: 'ops-anna', action: 'member.create' });
    expect(JSON.stringify(change.detail)).not.toContain('seller-secret-token');
    expect(change.detail).toMatchObject({ after: { sellerAuth: { kind: 'bearer', token: '[secret]' } } });
  });

  it('refuses to write a member live (409, naming the rule), writing nothing', async () => {
    const before = await allChanges();
    const error = await refusal(writer.create(newMember('M301', { status: 'live' }), 'ops-anna'));
    expect(error.kind).toBe('conflict');
    expect(error.problems[0]).toMatchObject({ path: '/status', rule: MEMBER_RULES.liveNeedsCertificate });
    expect(error.message).toContain(LIVE_NEEDS_CERTIFICATE);
    expect(await counts('M301')).toEqual({ members: 0, changes: 0 });
    const onUpdate = await refusal(writer.update('M300', { status: 'live' }, 'ops-anna'));
    expect(onUpdate.kind).toBe('conflict');
    expect((await writer.show('M300')).status).toBe('pending');
    expect(await allChanges()).toBe(before);
  });

  it('refuses a seller URL the production policy refuses, naming the rule, writing nothing', async () => {
    for (const sellerUrl of ['http://seller.example/x', 'https://10.0.0.7/seller', 'https://inside.example/seller']) {
      const error = await refusal(writer.create(newMember('M302', { sellerUrl }), 'ops-anna'));
      expect(error.kind).toBe('invalid');
      expect(error.problems[0]).toMatchObject({ path: '/sellerUrl', rule: MEMBER_RULES.sellerUrlPolicy });
    }
    const onUpdate = await refusal(writer.update('M300', { sellerUrl: 'https://169.254.169.254/' }, 'ops-anna'));
    expect(onUpdate.problems[0].rule).toBe(MEMBER_RULES.sellerUrlPolicy);
    expect(await counts('M302')).toEqual({ members: 0, changes: 0 });
    expect((await writer.show('M300')).sellerUrl).toBe('https://seller.example/federated');
  });

  it('refuses a state map that does not parse, naming its path; stores one that does', async () => {
    const error = await refusal(
      writer.update('M300', { stateMap: { states: { 'part exists': { mfr_code: 7 }, 'no such state': {} } } }, 'ops'),
    );
    expect(error.kind).toBe('invalid');
    const paths = error.problems.map((p) => p.path);
    expect(paths).toContain('/stateMap/states/part exists/mfr_code');
    expect(paths.some((p) => p.startsWith('/stateMap/states'))).toBe(true);
    expect((await writer.show('M300')).stateMap).toBeNull();
    const map = JSON.parse(await readFile(packagePath('fixtures', 'state-maps', 'mock-seller.json'), 'utf8'));
    const updated = await writer.update('M300', { stateMap: map, slos: ['p95<300ms', 'errors<0.1%'] }, 'ops');
    expect(updated.stateMap).toEqual(map);
    expect(updated.slos).toEqual(['p95<300ms', 'errors<0.1%']);
  });

  it('refuses fields past their bounds and inconsistent auth, at their paths', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [newMember('x'.repeat(101)), '/id'],
      [newMember('M303', { name: 'n'.repeat(201) }), '/name'],
      [newMember('M303', { timeoutMs: 60_001 }), '/timeoutMs'],
      [newMember('M303', { timeoutMs: 1.5 }), '/timeoutMs'],
      [newMember('M303', { integration: 'a\u0000b' }), '/integration'],
      [newMember('M303', { sellerAuth: { kind: 'bearer' } }), '/sellerAuth/token'],
      [newMember('M303', { sellerAuth: { kind: 'none', password: 'p' } }), '/sellerAuth/password'],
      [newMember('M303', { slos: ['p95 about 300ms'] }), '/slos/0'],
      [newMember('M303', { colour: 'blue' }), '/colour'],
      [newMember('M 303'), '/id'],
    ];
    for (const [body, path] of cases) {
      const error = await refusal(writer.create(body, 'ops'));
      expect(error.kind, path).toBe('invalid');
      expect(
        error.problems.map((p) => p.path),
        path,
      ).toContain(path);
    }
    expect(await counts('M303')).toEqual({ members: 0, changes: 0 });
    expect(() => operatorOf(undefined)).toThrow(/X-Operator is required/);
    expect(() => operatorOf('o'.repeat(101))).toThrow(MemberCommandError);
  });

  it('answers an unknown member with not-found, and a taken id with a conflict', async () => {
    expect((await refusal(writer.show('M999'))).kind).toBe('not-found');
    expect((await refusal(writer.suspend('M999', { reason: 'x' }, 'ops'))).kind).toBe('not-found');
    expect((await refusal(writer.addLocation('M999', { id: 'L999', description: 'd', type: 1 }, 'ops'))).kind).toBe(
      'not-found',
    );
    expect((await refusal(writer.create(newMember('M100'), 'ops'))).kind).toBe('conflict');
    expect(await counts('M999')).toEqual({ members: 0, changes: 0 });
  });

  it('adds and updates locations and accounts; a location id is unique across members', async () => {
    await writer.addLocation('M300', { id: 'L301', description: 'Harbour St', type: 1 }, 'ops');
    const taken = await refusal(writer.addLocation('M300', { id: 'L101', description: 'Dup', type: 1 }, 'ops'));
    expect(taken).toMatchObject({ kind: 'conflict' });
    expect(taken.message).toContain("member 'M100'");
    await writer.updateLocation('M300', 'L301', { type: 2 }, 'ops');
    expect(await writer.listLocations('M300')).toEqual([
      { id: 'L301', memberId: 'M300', description: 'Harbour St', type: 2 },
    ]);
    await writer.addAccount('M300', { accountId: 'A-3001', description: 'Demo Garage' }, 'ops');
    await writer.updateAccount('M300', 'A-3001', { standing: 'on_hold' }, 'ops');
    expect(await writer.listAccounts('M300')).toEqual([
      { memberId: 'M300', accountId: 'A-3001', description: 'Demo Garage', standing: 'on_hold' },
    ]);
    expect((await refusal(writer.updateAccount('M300', 'A-9', { standing: 'good' }, 'ops'))).kind).toBe('not-found');
    const actions = (await writer.changes('M300')).map((c) => c.action);
    expect(actions.slice(0, 4)).toEqual(['account.update', 'account.add', 'location.update', 'location.add']);
  });

  it('suspends, and reinstates to pending without a passing certificate, to live with one', async () => {
    const directory = createDirectory(store, { ttlMs: 60_000 });
    const live = memberWriter({ store, directory });
    expect((await directory.findMember('M200'))?.status).toBe('live');
    expect((await live.suspend('M200', { reason: 'seller answers 5xx all morning' }, 'ops-ben')).status).toBe(
      'suspended',
    );
    // This process's directory was dropped: the cached live copy is gone.
    expect((await directory.findMember('M200'))?.status).toBe('suspended');
    expect((await refusal(live.suspend('M200', { reason: 'again' }, 'ops-ben'))).kind).toBe('conflict');
    expect((await live.reinstate('M200', {}, 'ops-ben')).status).toBe('pending');
    await live.suspend('M200', { reason: 'again' }, 'ops-ben');
    await store.query(
      `INSERT INTO certification_jobs (id, member_id, status, contract_version, requested_by, requested_at, finished_at)
       VALUES (9001, 'M200', 'passed', $1, 'test', now(), now())`,
      [CONTRACT_VERSION],
    );
    await store.query(
      `INSERT INTO certificates (job_id, member_id, contract_version, contract_major, pact_digest, verdict, report,
         toolkit_version, issued_at)
       VALUES (9001, 'M200', $1, $2, 'sha256:test', 'passed', '{}'::jsonb, '0.0.0', now())`,
      [CONTRACT_VERSION, CURRENT_CONTRACT_MAJOR],
    );
    expect((await live.reinstate('M200', { reason: 'fixed' }, 'ops-ben')).status).toBe('live');
    expect((await directory.findMember('M200'))?.status).toBe('live');
    const [last] = await live.changes('M200', 1);
    expect(last).toMatchObject({ actor: 'ops-ben', action: 'member.reinstate', detail: { after: { status: 'live' } } });
    expect((await live.show('M200')).certificate).toMatchObject({ verdict: 'passed' });
    expect((await refusal(live.reinstate('M300', {}, 'ops'))).kind).toBe('conflict');
    directory.close();
  });
});
