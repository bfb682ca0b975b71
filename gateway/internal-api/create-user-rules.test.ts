import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Store } from '../store/store';
import { createTestStore } from '../testing/test-store';
import { createLocalAddressValidator } from '../address/local-address-validator';
import { AddressServiceUnavailable, type AddressValidator } from '../address/address-validator';
import { createInternalApi } from './internal-api';
import { validCreateUserRequest } from '../testing/create-user-request';

// One test per rule of POST /internal/users/create: each refusal is a 400 with the
// specification's message (or one naming the field) and leaves the directory untouched.

const TOKEN = 'rules-test-internal-token';
let store: Store;
let app: ReturnType<typeof createInternalApi>;
const logs: string[] = [];
beforeAll(async () => {
  store = await createTestStore();
  app = createInternalApi({
    store,
    addressValidator: createLocalAddressValidator(),
    config: { token: TOKEN },
    log: (l) => logs.push(l),
  });
});
afterAll(() => store.close());

const post = (body: unknown, target = app) =>
  target.request('/internal/users/create', {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

interface ErrorReply {
  status_code: number;
  message: string;
  errors: { path: string; message: string }[];
}

async function refused(change: Record<string, unknown>, omit: string[] = []): Promise<ErrorReply> {
  const body = validCreateUserRequest(change);
  for (const field of omit) delete body[field];
  const count = async () => (await store.query<{ n: number }>('SELECT count(*)::int AS n FROM users')).rows[0].n;
  const before = await count();
  const res = await post(body);
  expect(res.status).toBe(400);
  expect(await count()).toBe(before);
  return (await res.json()) as ErrorReply;
}

const locations = (...entries: [string, boolean, number][]) =>
  entries.map(([id, can_order, sort_order]) => ({ id, can_order, sort_order }));

describe('create user: uniqueness', () => {
  it('refuses a username in use: "Username already exists"', async () => {
    expect(await refused({ username: 'demo' })).toEqual({
      status_code: 4422,
      message: 'Username already exists',
      errors: [{ path: '/username', message: 'Username already exists' }],
    });
  });

  it('refuses an e-mail in use, whatever its case: "Email already exists"', async () => {
    const reply = await refused({ email: 'DEMO@Demo-Garage.example' });
    expect(reply.message).toBe('Email already exists');
    expect(reply.errors).toEqual([{ path: '/email', message: 'Email already exists' }]);
  });
});

describe('create user: fields', () => {
  it('refuses an e-mail that is not an address, naming the field', async () => {
    const reply = await refused({ email: 'nina-at-example' });
    expect(reply.errors).toEqual([{ path: '/email', message: '/email must be an e-mail address' }]);
    expect(reply.message).toBe('Invalid request: /email must be an e-mail address');
  });

  it('refuses an address the validator cannot accept: "Invalid address"', async () => {
    const reply = await refused({ address: 'Elm Street' });
    expect(reply.message).toBe('Invalid address');
    expect(reply.errors).toEqual([
      {
        path: '/address',
        message: 'Invalid address: address must start with a street number followed by the street name',
      },
    ]);
  });

  it('refuses a state that does not exist and a ZIP of another state: "Invalid address"', async () => {
    expect((await refused({ state: 'XX' })).errors.map((e) => e.path)).toEqual(['/state']);
    const reply = await refused({ zip: '90210' });
    expect(reply.message).toBe('Invalid address');
    expect(reply.errors).toEqual([{ path: '/zip', message: 'Invalid address: zip 90210 is not in MI' }]);
  });

  it('answers 503, not 400, when the address provider gives no verdict', async () => {
    const down: AddressValidator = {
      name: 'down',
      validate: async () => {
        throw new AddressServiceUnavailable('provider unreachable: ECONNREFUSED');
      },
    };
    const res = await post(
      validCreateUserRequest(),
      createInternalApi({ store, addressValidator: down, config: { token: TOKEN }, log: (l) => logs.push(l) }),
    );
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({
      status_code: 5503,
      message: 'address validation is unavailable; try again later',
    });
    expect(logs.at(-1)).toMatch(/ECONNREFUSED/);
  });

  it('refuses an unknown catalog region: "Invalid catalog region id"', async () => {
    const reply = await refused({ catalog_region_id: 'CR-MOON' });
    expect(reply.message).toBe('Invalid catalog region id');
    expect(reply.errors).toEqual([
      { path: '/catalog_region_id', message: "Invalid catalog region id: no catalog region 'CR-MOON'" },
    ]);
  });

  it('refuses a phone number not matching +?1?\\d{10}', async () => {
    for (const phone_number of ['555-555-0100', '55555501', '+2 5555550100', '+1555555010x']) {
      const reply = await refused({ phone_number });
      expect(
        reply.errors.map((e) => e.path),
        phone_number,
      ).toEqual(['/phone_number']);
    }
  });

  it('refuses an account no member has', async () => {
    const reply = await refused({ account_id: 'A-9999' });
    expect(reply.errors).toEqual([{ path: '/account_id', message: "/account_id no member has account 'A-9999'" }]);
  });

  it('refuses an unknown field, naming it', async () => {
    const reply = await refused({ nickname: 'Nin' });
    expect(reply.errors).toEqual([{ path: '/nickname', message: "/nickname unknown field 'nickname'" }]);
    expect(reply.message).toContain('/nickname');
  });

  it('refuses a wrongly typed field and a missing one, naming each', async () => {
    const reply = await refused({ first_name: 5, terminal_pin: 1234 }, ['employee_id']);
    expect(reply.errors.map((e) => e.path).sort()).toEqual(['/employee_id', '/first_name', '/terminal_pin']);
    expect(reply.errors.find((e) => e.path === '/first_name')?.message).toBe('/first_name must be a string');
    expect(reply.errors.find((e) => e.path === '/employee_id')?.message).toBe('/employee_id is required');
    expect(reply.errors.find((e) => e.path === '/terminal_pin')?.message).toBe(
      '/terminal_pin must be a string or null',
    );
  });

  it('refuses a body that is not JSON, or not an object', async () => {
    const res = await post('{"username": ');
    expect(res.status).toBe(400);
    expect(((await res.json()) as ErrorReply).errors[0].path).toBe('');
    const list = await post([validCreateUserRequest()]);
    expect(list.status).toBe(400);
    expect(((await list.json()) as ErrorReply).message).toBe('Invalid request: body must be a JSON object');
  });
});

describe('create user: locations', () => {
  it('needs at least one location', async () => {
    const reply = await refused({ locations: [] });
    expect(reply.errors).toEqual([{ path: '/locations', message: '/locations must have at least 1 item' }]);
  });

  it('needs a primary location (sort_order 1): "Invalid user locations"', async () => {
    const reply = await refused({ locations: locations(['L101', true, 2], ['L150', true, 3]) });
    expect(reply.message).toBe('Invalid user locations');
    expect(reply.errors).toEqual([
      {
        path: '/locations',
        message: 'Invalid user locations: one location must have sort_order 1 (the primary location)',
      },
    ]);
  });

  it('needs the primary location to have can_order true', async () => {
    const reply = await refused({ locations: locations(['L101', false, 1], ['L150', true, 2]) });
    expect(reply.message).toBe('Invalid user locations');
    expect(reply.errors.map((e) => e.path)).toEqual(['/locations/0/can_order']);
  });

  it('needs sort_order values unique (so exactly one primary)', async () => {
    const reply = await refused({ locations: locations(['L101', true, 1], ['L150', true, 1]) });
    expect(reply.message).toBe('Invalid user locations');
    expect(reply.errors.map((e) => e.path)).toEqual(['/locations/1/sort_order']);
  });

  it('needs sort_order values greater than 0', async () => {
    const reply = await refused({ locations: locations(['L101', true, 1], ['L150', true, 0]) });
    expect(reply.errors).toEqual([
      { path: '/locations/1/sort_order', message: '/locations/1/sort_order must be >= 1' },
    ]);
  });

  it('refuses a location of another member than the account\'s: "Invalid user locations"', async () => {
    const reply = await refused({ locations: locations(['L101', true, 1], ['L201', true, 2]) });
    expect(reply.message).toBe('Invalid user locations');
    expect(reply.errors).toEqual([
      {
        path: '/locations/1/id',
        message:
          "Invalid user locations: location 'L201' belongs to member M200, not M100 (the member of account 'A-1001')",
      },
    ]);
  });

  it('refuses a location that does not exist and one listed twice', async () => {
    const reply = await refused({ locations: locations(['L101', true, 1], ['L999', true, 2], ['L101', true, 3]) });
    expect(reply.errors).toEqual([
      { path: '/locations/1/id', message: "Invalid user locations: no location 'L999'" },
      { path: '/locations/2/id', message: "Invalid user locations: location 'L101' is also listed at /locations/0" },
    ]);
  });

  it("accepts a member M200 account with M200's locations", async () => {
    const res = await post(
      validCreateUserRequest({
        username: 'lake',
        email: 'lake@x.example',
        account_id: 'A-2001',
        locations: locations(['L201', true, 1], ['L250', false, 2]),
      }),
    );
    expect(res.status).toBe(200);
  });
});

describe('create user: several problems at once', () => {
  it('reports every independent problem in one answer, the specification message on top', async () => {
    const reply = await refused({
      username: 'demo',
      zip: '1234',
      nickname: 'x',
      phone_number: '12',
      catalog_region_id: 'CR-MOON',
      locations: locations(['L101', true, 1], ['L201', true, 2]),
    });
    expect(reply.message).toBe('Invalid catalog region id');
    expect(reply.errors.map((e) => e.path).sort()).toEqual([
      '/catalog_region_id',
      '/locations/1/id',
      '/nickname',
      '/phone_number',
      '/username',
      '/zip',
    ]);
  });
});

describe('create user: what the store can carry', () => {
  // PostgreSQL text holds no NUL, and a lone surrogate has no UTF-8 form: both were a 500.
  it.each([
    ['a NUL', 'x\u0000y'],
    ['a lone high surrogate', 'x\ud800y'],
    ['a lone low surrogate', 'x\udc00'],
  ])('refuses %s in the username and a name, naming each field', async (_, bad) => {
    const reply = await refused({ username: `u${bad}`, first_name: bad });
    expect(reply.status_code).toBe(4422);
    expect(reply.errors.map((e) => e.path).sort()).toEqual(['/first_name', '/username']);
    expect(reply.errors[0].message).toMatch(/NUL .* or an unpaired surrogate/);
  });

  it('refuses a username over 150 characters and a sort_order past int4', async () => {
    const reply = await refused({
      username: 'u'.repeat(151),
      locations: locations(['L101', true, 1], ['L150', true, 2 ** 31]),
    });
    expect(reply.errors.map((e) => e.path).sort()).toEqual(['/locations/1/sort_order', '/username']);
  });

  it('accepts a name with a surrogate pair and one of exactly 150 characters', async () => {
    const res = await post(
      validCreateUserRequest({ username: 'b'.repeat(150), email: 'bounds@x.example', first_name: 'Zoë \u{1F600}' }),
    );
    expect(res.status).toBe(200);
  });
});

describe('create user: request size', () => {
  it('refuses a body over 64 KiB with 413 before reading it as a user', async () => {
    const res = await post(validCreateUserRequest({ company_name: 'x'.repeat(70_000) }));
    expect(res.status).toBe(413);
    expect(((await res.json()) as ErrorReply).message).toBe('request body larger than 65536 bytes');
  });
});
