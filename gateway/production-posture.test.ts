import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from './testing/test-gateway';
import { createTestStore } from './testing/test-store';
import { createDirectory } from './directory/create-directory';
import { DirectoryWriteRefused, seedDirectory } from './directory/directory-seed';
import { revokeKey } from './directory/api-keys';
import { createSellerClient } from './seller-client/seller-client';
import {
  productionSellerAddresses,
  resolvedSellerUrlRefusal,
  UNRESTRICTED_SELLER_ADDRESSES,
} from './seller-client/seller-address-policy';
import { startMockSeller } from '../mock-seller/index';
import { createGateway } from './app';
import { gatewayConfig } from './gateway-config';
import { mintDevToken } from './auth/dev-keys';
import { securityPosture, StartupRefusal } from './production-posture';
import { seedingEnabled } from './open-gateway-store';
import type { Store } from './store/store';

const INQUIRY = { items: [{ id: '1', mfr_code: 'WIX', part_number: '51515' }] };
const productionSettings = {
  production: true,
  sellerAddresses: productionSellerAddresses([]),
  config: gatewayConfig(),
};
const developmentSettings = {
  production: false,
  sellerAddresses: UNRESTRICTED_SELLER_ADDRESSES,
  config: gatewayConfig({ forwardHeaders: ['x-mock-fault'] }),
};

const post = (
  app: { request: (path: string, init: RequestInit) => Response | Promise<Response> },
  token: string,
  body: unknown = INQUIRY,
) =>
  app.request('/json/federated/v3_2/item_inquiry', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });

describe('a production gateway and the development keys', () => {
  let gateway: TestGateway;
  beforeAll(async () => {
    gateway = await startTestGateway({ config: { auth: { refuseDevelopmentKeys: true } } });
  });
  afterAll(() => gateway.close());

  it('refuses the dev token (npm run token -- --user demo) with 401, the reason in the log only', async () => {
    const response = await gateway.post('/json/federated/v3_2/item_inquiry', INQUIRY);
    expect(response.status).toBe(401);
    const body = (await response.json()) as { status_code: number; message: string };
    expect(body.status_code).toBe(4403);
    expect(body.message).not.toMatch(/development|dev-keys|revoke/);
    expect(gateway.logs.at(-1)?.reason).toMatch(
      /kid 'dev-key-1' of client 'dev-buyer-system' is a development key .* npm run keys -- revoke --kid dev-key-1/,
    );
    expect(gateway.seller.seller.journal.entries()).toHaveLength(0);
  });

  it('refuses to start on a store holding one, naming every key and the command that revokes it', async () => {
    const refusal = await securityPosture({ store: gateway.store, settings: productionSettings, seeding: false }).catch(
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(StartupRefusal);
    expect((refusal as Error).message).toContain(
      "kid 'dev-key-1' of client 'dev-buyer-system', kid 'dev-key-2' of client 'dev-other-system'",
    );
    expect((refusal as Error).message).toContain(
      'npm run keys -- revoke --kid dev-key-1 && npm run keys -- revoke --kid dev-key-2',
    );
  });

  it('says what is on in development: keys present, headers forwarded, addresses unrestricted', async () => {
    const line = await securityPosture({ store: gateway.store, settings: developmentSettings, seeding: true });
    expect(line).toBe(
      'security posture: environment development; seeding on; development keys present (dev-key-1,dev-key-2; refused in production); ' +
        'forwarded headers x-mock-fault; seller addresses unrestricted; allowed seller hosts none',
    );
  });
});

describe('production seeding', () => {
  let store: Store;
  beforeAll(async () => {
    store = await createTestStore({ empty: true });
  });
  afterAll(() => store.close());

  it('is off unless GATEWAY_SEED asks for it; development seeds as before', () => {
    expect(seedingEnabled({ NODE_ENV: 'production' })).toBe(false);
    expect(seedingEnabled({ NODE_ENV: 'production', GATEWAY_SEED: 'on' })).toBe(true);
    expect(seedingEnabled({})).toBe(true);
    expect(seedingEnabled({ GATEWAY_SEED: 'off' })).toBe(false);
  });

  it('refuses a seller URL the address policy refuses, naming the field, and writes nothing', async () => {
    const policy = productionSellerAddresses([]);
    const refusal = await seedDirectory(store, {
      sellerUrl: 'http://127.0.0.1:9090/seller',
      developmentKeys: false,
      sellerUrlRefusal: (url) => resolvedSellerUrlRefusal(policy, url, () => Promise.reject(new Error('not asked'))),
    }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(DirectoryWriteRefused);
    expect((refusal as DirectoryWriteRefused).field).toBe('members[].seller_url');
    expect((refusal as Error).message).toMatch(/must be https/);
    expect((await store.query('SELECT 1 FROM members')).rows).toHaveLength(0);
  });

  it('registers no development key even when asked to seed, so the dev token is refused (401) on the fresh store', async () => {
    const policy = productionSellerAddresses([]);
    const publicAddress = () => Promise.resolve([{ address: '93.184.216.34', family: 4 }]);
    await seedDirectory(store, {
      sellerUrl: 'https://seller.example/seller',
      developmentKeys: false,
      sellerUrlRefusal: (url) => resolvedSellerUrlRefusal(policy, url, publicAddress),
    });
    expect((await store.query('SELECT 1 FROM members')).rows.length).toBeGreaterThan(0);
    expect((await store.query('SELECT 1 FROM api_keys')).rows).toHaveLength(0);
    expect(await securityPosture({ store, settings: productionSettings, seeding: true })).toBe(
      'security posture: environment production; seeding on (without development keys); development keys none; ' +
        'forwarded headers none; seller addresses https, public only; allowed seller hosts none',
    );

    const sellerClient = createSellerClient({ addressPolicy: policy });
    const app = createGateway({
      store,
      directory: createDirectory(store),
      sellerClient,
      config: gatewayConfig({ auth: { refuseDevelopmentKeys: true } }),
      logger: false,
    });
    const response = await post(app, await mintDevToken('dev-key-1'));
    await sellerClient.close();
    expect(response.status).toBe(401);
    expect(((await response.json()) as { message: string }).message).toMatch(/unknown kid 'dev-key-1'/);
  });
});

describe('a production gateway calling a seller at an internal address', () => {
  it('answers 502 / 5500 naming the member, and the seller receives nothing; the order number stays free', async () => {
    const seller = await startMockSeller();
    const store = await createTestStore({ sellerUrl: `${seller.url}/seller` });
    const sellerClient = createSellerClient({ addressPolicy: productionSellerAddresses([]) });
    const logs: Record<string, unknown>[] = [];
    const app = createGateway({
      store,
      directory: createDirectory(store),
      sellerClient,
      config: gatewayConfig(),
      logger: (entry) => logs.push(entry),
    });
    try {
      const response = await post(app, await mintDevToken('dev-key-1'), {
        ...INQUIRY,
        locations: [{ id: 'L101', member: 'M100', account: 'A-1001' }],
      });
      expect(response.status).toBe(502);
      const body = (await response.json()) as { status_code: number; message: string; errors: { member?: string }[] };
      expect(body.status_code).toBe(5500);
      expect(body.message).toMatch(
        /seller of member M100 at http:\/\/127\.0\.0\.1:\d+\/seller was not called: http: is refused in production/,
      );
      expect(body.errors[0].member).toBe('M100');

      const order = {
        purchase_order_number: 'PO-PROD-1',
        order_type: 1,
        items: [{ id: '1', mfr_code: 'WIX', part_number: '51515', location_id: 'L101', quantity_ordered: 1 }],
      };
      const placed = await app.request('/json/federated/v3_2/place_order', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${await mintDevToken('dev-key-1')}` },
        body: JSON.stringify(order),
      });
      expect(placed.status).toBe(502);
      expect(((await placed.json()) as { message: string }).message).toMatch(
        /the order was not placed, so purchase order 'PO-PROD-1' may be sent again/,
      );
      expect(seller.seller.journal.entries()).toHaveLength(0);

      // After revoking the development keys the posture check lets the gateway start, and names the refused sellers.
      await revokeKey(store, 'dev-key-1');
      await revokeKey(store, 'dev-key-2');
      expect(await securityPosture({ store, settings: productionSettings, seeding: false })).toMatch(
        /sellers refused \(http or an internal address\) M100,M200/,
      );
    } finally {
      await sellerClient.close();
      await seller.close();
      await store.close();
    }
  });
});
