import { describe, it, expect, beforeEach, afterEach } from 'vitest';
import { readFile } from 'node:fs/promises';
import type { Store } from '../store/store';
import { createTestStore } from '../testing/test-store';
import { createDirectory } from '../directory/create-directory';
import { registerKey } from '../directory/api-keys';
import { createTokenVerifier } from '../auth/token-verifier';
import { mintToken } from '../auth/mint-token';
import { createLocalAddressValidator } from '../address/local-address-validator';
import { listMail } from '../mail/outbox';
import { DEV_KEYS } from '../auth/dev-keys';
import { createInternalApi } from './internal-api';
import { checkCreateUser } from './create-user-checks';
import { insertUser } from './user-writer';
import { CreateUserRejected } from './internal-api-errors';
import { validCreateUserRequest } from '../testing/create-user-request';

const TOKEN = 'create-test-internal-token';
const NOW = Date.parse('2026-03-02T10:00:00Z');
let store: Store;
beforeEach(async () => {
  store = await createTestStore();
});
afterEach(() => store.close());

const api = (extra: Partial<Parameters<typeof createInternalApi>[0]> = {}) =>
  createInternalApi({
    store,
    addressValidator: createLocalAddressValidator(),
    config: { token: TOKEN },
    clock: () => NOW,
    log: () => {},
    ...extra,
  });
const post = (app: ReturnType<typeof api>, body: unknown) =>
  app.request('/internal/users/create', {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

async function traces() {
  const count = async (table: string) =>
    (await store.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`)).rows[0].n;
  return {
    users: await count('users'),
    user_locations: await count('user_locations'),
    mail_outbox: await count('mail_outbox'),
  };
}

describe('create user: success', () => {
  it('answers {username, user_id} and writes the user, its locations and a pending welcome message', async () => {
    const res = await post(
      api(),
      validCreateUserRequest({
        phone_number: '+15555550123',
        company_name: 'New Garage',
        terminal_pin: 'T-9',
        address: ' 12  Elm St ',
        state: 'mi',
      }),
    );
    expect(res.status).toBe(200);
    const reply = (await res.json()) as { username: string; user_id: number };
    expect(reply).toEqual({ username: 'nina', user_id: expect.any(Number) });

    const {
      rows: [user],
    } = await store.query<Record<string, unknown>>('SELECT * FROM users WHERE id = $1', [reply.user_id]);
    expect(user).toMatchObject({
      username: 'nina',
      email: 'nina@new-garage.example',
      first_name: 'Nina',
      last_name: 'Newman',
      address: '12 Elm St',
      city: 'Northside',
      state: 'MI',
      zip: '49001',
      employee_id: 'E-0100',
      catalog_region_id: 'CR-NORTH',
      account_id: 'A-1001',
      member_id: 'M100',
      phone_number: '+15555550123',
      company_name: 'New Garage',
      terminal_pin: 'T-9',
      password_hash: null,
    });
    expect(new Date(user.created_at as string).getTime()).toBe(NOW);
    const { rows: locations } = await store.query(
      'SELECT location_id, member_id, account_id, can_order, sort_order FROM user_locations WHERE user_id = $1 ORDER BY sort_order',
      [reply.user_id],
    );
    expect(locations).toEqual([
      { location_id: 'L101', member_id: 'M100', account_id: 'A-1001', can_order: true, sort_order: 1 },
      { location_id: 'L150', member_id: 'M100', account_id: 'A-1001', can_order: false, sort_order: 2 },
    ]);
    const mail = await listMail(store);
    expect(mail).toEqual([
      expect.objectContaining({
        kind: 'welcome',
        recipient: 'nina@new-garage.example',
        userId: reply.user_id,
        state: 'pending',
        attempts: 0,
      }),
    ]);
    // The queued message holds no password: it is made when the mail is sent.
    expect(mail[0].payload).toEqual({ username: 'nina', first_name: 'Nina' });
  });

  it('applies the defaults: phone_number "", company_name "", terminal_pin null', async () => {
    const res = await post(api(), validCreateUserRequest());
    expect(res.status).toBe(200);
    const { rows } = await store.query(
      'SELECT phone_number, company_name, terminal_pin FROM users WHERE username = $1',
      ['nina'],
    );
    expect(rows).toEqual([{ phone_number: '', company_name: '', terminal_pin: null }]);
  });

  it('accepts the phone forms the pattern allows', async () => {
    const app = api();
    for (const [i, phone_number] of ['5555550100', '15555550100', '+5555550100', ''].entries()) {
      const res = await post(
        app,
        validCreateUserRequest({ username: `p${i}`, email: `p${i}@x.example`, phone_number }),
      );
      expect(res.status, phone_number).toBe(200);
    }
  });

  it('can at once be linked to an API client and act through the gateway directory and auth', async () => {
    const directory = createDirectory(store);
    // Cached as absent before the creation; the API's invalidate() must drop that.
    expect(await directory.findUser('nina')).toBeUndefined();
    const res = await post(api({ directory }), validCreateUserRequest());
    const { user_id } = (await res.json()) as { user_id: number };

    const user = await directory.findUser('nina');
    expect(user).toMatchObject({ id: user_id, username: 'nina', accountId: 'A-1001' });
    expect(user?.locations.map((l) => [l.locationId, l.memberId, l.accountId, l.canOrder, l.sortOrder])).toEqual([
      ['L101', 'M100', 'A-1001', true, 1],
      ['L150', 'M100', 'A-1001', false, 2],
    ]);

    // Link a new client's key to the user (reusing a dev key pair as the client's key).
    const key = DEV_KEYS['dev-key-1'];
    await registerKey(
      store,
      {
        clientId: 'nina-system',
        kid: 'nina-key-1',
        publicKeyPem: await readFile(key.publicKeyFile, 'utf8'),
        usernames: ['nina'],
      },
      directory,
    );
    expect(await directory.linkedUsernames('nina-system')).toEqual(['nina']);
    const token = await mintToken({
      privateKey: await readFile(key.privateKeyFile, 'utf8'),
      kid: 'nina-key-1',
      issuer: 'nina-system',
      subject: 'nina',
    });
    const buyer = await createTokenVerifier({ directory, clock: () => Date.now() }).verify(`Bearer ${token}`);
    expect(buyer.user.username).toBe('nina');
    expect(buyer.user.locations.map((l) => l.locationId)).toEqual(['L101', 'L150']);
  });
});

describe('create user: nothing half-made', () => {
  it('leaves no trace when a location in the middle fails inside the transaction', async () => {
    const checked = await checkCreateUser(validCreateUserRequest(), {
      db: store,
      addressValidator: createLocalAddressValidator(),
    });
    // A location that vanished (or never was) between the checks and the write.
    checked.request.locations = [
      { id: 'L101', can_order: true, sort_order: 1 },
      { id: 'L-GONE', can_order: true, sort_order: 2 },
      { id: 'L150', can_order: true, sort_order: 3 },
    ];
    const before = await traces();
    const failure = await insertUser(store, checked, new Date(NOW)).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(CreateUserRejected);
    expect((failure as CreateUserRejected).message).toBe('Invalid user locations');
    expect(await traces()).toEqual(before);
    expect((await store.query('SELECT 1 FROM users WHERE username = $1', ['nina'])).rows).toEqual([]);
  });

  it('maps a unique violation at insert time to the specification message (no check in between)', async () => {
    const checked = await checkCreateUser(validCreateUserRequest(), {
      db: store,
      addressValidator: createLocalAddressValidator(),
    });
    await insertUser(store, checked, new Date(NOW));
    const before = await traces();
    await expect(insertUser(store, checked, new Date(NOW))).rejects.toThrow('Username already exists');
    const otherName = {
      ...checked,
      request: { ...checked.request, username: 'nina2', email: 'NINA@new-garage.example' },
    };
    await expect(insertUser(store, otherName, new Date(NOW))).rejects.toThrow('Email already exists');
    expect(await traces()).toEqual(before);
  });
});

describe('create user: concurrency', () => {
  it('of the same username, exactly one succeeds and the others get "Username already exists"', async () => {
    const app = api();
    const replies = await Promise.all(
      [0, 1, 2, 3, 4].map((i) => post(app, validCreateUserRequest({ email: `nina${i}@new-garage.example` }))),
    );
    const statuses = replies.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 400, 400, 400, 400]);
    const messages = await Promise.all(
      replies.filter((r) => r.status === 400).map(async (r) => ((await r.json()) as { message: string }).message),
    );
    expect(new Set(messages)).toEqual(new Set(['Username already exists']));
    expect((await traces()).users).toBe(3); // demo, other, and one nina
    expect((await traces()).mail_outbox).toBe(1);
  });

  it('of the same e-mail in different cases, exactly one succeeds and the others get "Email already exists"', async () => {
    const app = api();
    const emails = ['sam@x.example', 'SAM@x.example', 'Sam@X.example', 'sam@X.EXAMPLE'];
    const replies = await Promise.all(
      emails.map((email, i) => post(app, validCreateUserRequest({ username: `sam${i}`, email }))),
    );
    expect(replies.map((r) => r.status).sort()).toEqual([200, 400, 400, 400]);
    for (const r of replies.filter((x) => x.status === 400))
      expect(((await r.json()) as { message: string }).message).toBe('Email already exists');
    expect(
      (await store.query("SELECT count(*)::int AS n FROM users WHERE lower(email) = 'sam@x.example'")).rows,
    ).toEqual([{ n: 1 }]);
  });
});
