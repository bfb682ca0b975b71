import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startTestGateway, type TestGateway } from '../testing/test-gateway';
import { registerKey } from '../directory/api-keys';
import { mintToken } from '../auth/mint-token';
import { V3_2 } from '../app';
import { createLocalAddressValidator } from '../address/local-address-validator';
import { PACKAGE_ROOT } from '../../shared/package-root';
import { DEV_KEYS } from '../auth/dev-keys';
import { createInternalApi } from './internal-api';

// A user created through the internal API is at once a buyer of the gateway in the same
// process: linked to a new API client, their token works and their locations are served.

const TOKEN = 'gateway-access-test-token';
let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(() => gw.close());

describe('a user created through the internal API', () => {
  it('from the contract fixture, can be linked to an API client and make an item inquiry through the gateway at once', async () => {
    const internal = createInternalApi({
      store: gw.store,
      directory: gw.directory,
      addressValidator: createLocalAddressValidator(),
      config: { token: TOKEN },
      log: () => {},
    });
    const body = await readFile(join(PACKAGE_ROOT, 'fixtures', 'payloads', 'users-create.request.json'), 'utf8');
    const created = await internal.request('/internal/users/create', {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body,
    });
    expect(created.status).toBe(200);
    expect(await created.json()).toEqual({ username: 'jdoe', user_id: expect.any(Number) });

    const key = DEV_KEYS['dev-key-1'];
    await registerKey(
      gw.store,
      {
        clientId: 'jdoe-system',
        kid: 'jdoe-key-1',
        publicKeyPem: await readFile(key.publicKeyFile, 'utf8'),
        usernames: ['jdoe'],
      },
      gw.directory,
    );
    const token = await mintToken({
      privateKey: await readFile(key.privateKeyFile, 'utf8'),
      kid: 'jdoe-key-1',
      issuer: 'jdoe-system',
      subject: 'jdoe',
    });

    const res = await gw.post(
      `${V3_2}/item_inquiry`,
      { items: [{ id: 'item-1', mfr_code: 'WIX', part_number: '51515' }] },
      { token },
    );
    expect(res.status).toBe(200);
    const reply = (await res.json()) as {
      status_code: number;
      items: { id: string; status_code: number; locations: { id: string; sort_order: number; can_order: boolean }[] }[];
    };
    expect(reply.status_code).toBe(2000);
    const item = reply.items.find((i) => i.id === 'item-1' && i.status_code === 1);
    expect(item?.locations[0]).toMatchObject({ id: 'L101', sort_order: 1, can_order: true });
    // The seller was asked for exactly the new user's locations, with their account.
    const [asked] = gw.seller.seller.journal
      .entries({ service: 'item_inquiry', limit: 1 })
      .map((e) => e.request as { locations: { id: string; member: string; account: string }[] });
    expect(asked.locations).toEqual([
      { id: 'L101', member: 'M100', account: 'A-1001' },
      { id: 'L150', member: 'M100', account: 'A-1001' },
      { id: 'L102', member: 'M100', account: 'A-1001' },
    ]);
  });
});
