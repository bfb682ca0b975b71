// /internal/members through the internal API, beside a buyer gateway on the same store and
// directory: an operator's change reaches buyers at once, every refusal is a 4xx naming the field
// or rule, and a refused write leaves nothing behind.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Hono } from 'hono';
import { startTestGateway, type TestGateway } from '../testing/test-gateway';
import { createLocalAddressValidator } from '../address/local-address-validator';
import { createInternalApi } from './internal-api';
import { V3_2 } from '../app';
import { compileValidator } from '../../contracts/validator';
import { CreateMemberInput } from '../directory/member-shapes';
import { MEMBER_RULES } from '../directory/members';
import { productionSellerAddresses, resolvedSellerUrlRefusal } from '../seller-client/seller-address-policy';

const TOKEN = 'member-routes-test-token';
const policy = productionSellerAddresses([]);

interface Answer {
  status: number;
  body: {
    status_code?: number;
    message?: string;
    status?: string;
    errors?: { path: string; rule?: string }[];
  } & Record<string, unknown>;
}

let gw: TestGateway;
let internal: Hono;
beforeAll(async () => {
  gw = await startTestGateway();
  internal = createInternalApi({
    store: gw.store,
    directory: gw.directory,
    addressValidator: createLocalAddressValidator(),
    config: { token: TOKEN },
    log: () => {},
    // The production policy, with names resolved here: the test's seller is on loopback, allowed by its literal.
    sellerUrlRefusal: (url) =>
      url.startsWith(`${gw.seller.url}/`)
        ? Promise.resolve(undefined)
        : resolvedSellerUrlRefusal(policy, url, async () => [{ address: '93.184.216.34', family: 4 }]),
  });
});
afterAll(() => gw.close());

async function call(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = { 'x-operator': 'ops-anna' },
): Promise<Answer> {
  const response = await internal.request(path, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Answer['body'] };
}

const memberRows = async (id: string) =>
  (
    await gw.store.query<{ n: number }>(
      `SELECT (SELECT count(*)::int FROM members WHERE id = $1) + (SELECT count(*)::int FROM member_changes WHERE member_id = $1) AS n`,
      [id],
    )
  ).rows[0].n;

describe('a member added, suspended and reinstated through the internal API', () => {
  it('starts pending, serves no buyer, is suspended and reinstated, each step recorded with its operator', async () => {
    const created = await call('POST', '/internal/members', {
      id: 'M400',
      name: 'Harbour Parts',
      sellerUrl: `${gw.seller.url}/seller`,
      sellerAuth: { kind: 'basic', username: 'gw', password: 'hunter2-secret' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: 'pending', sellerAuth: { kind: 'basic', username: 'gw' } });
    expect(JSON.stringify(created.body)).not.toContain('hunter2-secret');
    expect(
      (await call('POST', '/internal/members/M400/locations', { id: 'L401', description: 'Pier', type: 1 })).status,
    ).toBe(201);
    expect(
      (await call('POST', '/internal/members/M400/accounts', { accountId: 'A-4001', description: 'Demo' })).status,
    ).toBe(201);
    const listed = await call('GET', '/internal/members?status=pending');
    expect((listed.body as unknown as { id: string }[]).map((m) => m.id)).toEqual(['M400']);

    // A buyer at the new location: refused while the member is pending.
    await gw.store.query(
      `INSERT INTO user_locations (user_id, location_id, member_id, account_id, can_order, sort_order)
       SELECT id, 'L401', 'M400', 'A-4001', true, 9 FROM users WHERE username = 'demo'`,
    );
    gw.directory.invalidate();
    const inquiry = {
      items: [{ id: 'i1', mfr_code: 'GAT', part_number: '22433' }],
      locations: [{ id: 'L401', member: 'M400', account: 'A-4001' }],
    };
    const pending = await gw.post(`${V3_2}/item_inquiry`, inquiry);
    expect(pending.status).toBe(403);
    expect(((await pending.json()) as Answer['body']).errors?.[0]).toMatchObject({
      path: '/locations/0/id',
      rule: 'member.not-live',
    });

    // The certificate's part, done by hand: another component sets a member live on a pass.
    await gw.store.query("UPDATE members SET status = 'live' WHERE id = 'M400'");
    gw.directory.invalidate();
    expect((await gw.post(`${V3_2}/item_inquiry`, inquiry)).status).toBe(200);

    const suspended = await call(
      'POST',
      '/internal/members/M400/suspend',
      { reason: 'answers 5xx' },
      { 'x-operator': 'ops-ben' },
    );
    expect(suspended).toMatchObject({ status: 200, body: { status: 'suspended' } });
    // At once, without waiting for the cache: the write dropped this process's directory.
    expect((await gw.post(`${V3_2}/item_inquiry`, inquiry)).status).toBe(403);

    const reinstated = await call('POST', '/internal/members/M400/reinstate', undefined);
    expect(reinstated).toMatchObject({ status: 200, body: { status: 'pending' } });

    const shown = await call('GET', '/internal/members/M400');
    expect(shown.body).toMatchObject({
      locations: [{ id: 'L401' }],
      accounts: [{ accountId: 'A-4001' }],
      certificate: null,
    });
    const history = (await call('GET', '/internal/members/M400/changes')).body as unknown as {
      actor: string;
      action: string;
      detail: object;
    }[];
    expect(history.map((c) => `${c.actor} ${c.action}`)).toEqual([
      'ops-anna member.reinstate',
      'ops-ben member.suspend',
      'ops-anna account.add',
      'ops-anna location.add',
      'ops-anna member.create',
    ]);
    expect(JSON.stringify(history)).not.toContain('hunter2-secret');
  });
});

describe('refusals', () => {
  const valid = () => ({ id: 'M401', name: 'Bounds', sellerUrl: 'https://seller.example/x' });

  it('needs X-Operator on every write (400 naming the header), and writes nothing without it', async () => {
    const answer = await call('POST', '/internal/members', valid(), {});
    expect(answer.status).toBe(400);
    expect(answer.body.errors?.[0].path).toBe('header:X-Operator');
    expect((await call('POST', '/internal/members/M100/suspend', { reason: 'x' }, {})).status).toBe(400);
    expect(await memberRows('M401')).toBe(0);
  });

  it('answers 409 naming the rule to a write that sets a member live', async () => {
    const answer = await call('POST', '/internal/members', { ...valid(), status: 'live' });
    expect(answer.status).toBe(409);
    expect(answer.body.message).toContain('a member goes live only on a passing certificate');
    expect(answer.body.errors?.[0]).toMatchObject({ path: '/status', rule: MEMBER_RULES.liveNeedsCertificate });
    expect(await memberRows('M401')).toBe(0);
  });

  it('answers 404 for an unknown member, 400 for a path id the store cannot hold', async () => {
    for (const [method, path] of [
      ['GET', '/internal/members/M999'],
      ['PATCH', '/internal/members/M999'],
      ['GET', '/internal/members/M999/changes'],
      ['POST', '/internal/members/M999/accounts'],
    ]) {
      const body =
        method === 'GET' ? undefined : method === 'PATCH' ? { name: 'x' } : { accountId: 'A', description: 'd' };
      expect((await call(method, path, body)).status, `${method} ${path}`).toBe(404);
    }
    const nul = await call('GET', '/internal/members/a%00b');
    expect(nul.status).toBe(400);
    expect(nul.body.errors?.[0].path).toBe('path:id');
  });

  it('refuses a seller URL the production policy refuses, a state map that does not parse, JSON that is not', async () => {
    const url = await call('POST', '/internal/members', { ...valid(), sellerUrl: 'http://seller.example/x' });
    expect(url.status).toBe(400);
    expect(url.body.errors?.[0]).toMatchObject({ path: '/sellerUrl', rule: MEMBER_RULES.sellerUrlPolicy });
    const map = await call('POST', '/internal/members', { ...valid(), stateMap: { states: 'all of them' } });
    expect(map.status).toBe(400);
    expect(map.body.errors?.map((e) => e.path)).toContain('/stateMap/states');
    expect((await call('POST', '/internal/members', '{"id": "M401",')).status).toBe(400);
    expect((await call('GET', '/internal/members?status=asleep')).status).toBe(400);
    expect((await call('GET', '/internal/members/M100/changes?limit=0')).status).toBe(400);
    expect(await memberRows('M401')).toBe(0);
  });

  it('refuses as its documented schema does: each field one past its bound, at its path', async () => {
    const schema = compileValidator(CreateMemberInput);
    const cases: [string, Record<string, unknown>][] = [
      ['/id', { ...valid(), id: 'i'.repeat(101) }],
      ['/name', { ...valid(), name: 'n'.repeat(201) }],
      ['/sellerUrl', { ...valid(), sellerUrl: `https://seller.example/${'p'.repeat(2048)}` }],
      ['/timeoutMs', { ...valid(), timeoutMs: 99 }],
      ['/slos', { ...valid(), slos: Array.from({ length: 21 }, () => 'p95<300ms') }],
    ];
    for (const [path, body] of cases) {
      const answer = await call('POST', '/internal/members', body);
      expect(answer.status, path).toBe(400);
      expect(
        answer.body.errors?.map((e) => e.path),
        path,
      ).toContain(path);
      expect(schema(body).valid, path).toBe(false);
    }
    expect(schema(valid()).valid).toBe(true);
    expect(await memberRows('M401')).toBe(0);
  });
});
