import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockSeller, type RunningMockSeller, readDefaultScenario } from '../../mock-seller/index';
import { createExchangeLog } from '../../inspector/exchange-log';
import { createSellerClient } from './seller-client';
import { recordingSellerClient } from './recording-seller-client';
import type { SellerCall } from './seller-client.types';
import { createTestStore } from '../testing/test-store';
import { createDirectory } from '../directory/create-directory';
import { createGateway, V3_2 } from '../app';
import { mintDevToken } from '../auth/dev-keys';

// The gateway's forwarded calls as the inspector sees them, through the real seller client
// and a real mock seller on a loopback port 0.

let seller: RunningMockSeller;
beforeAll(async () => {
  seller = await startMockSeller({ scenario: readDefaultScenario(), port: 0 });
});
afterAll(() => seller.close());

const body = {
  service: 'item_inquiry',
  locations: [{ id: 'L101', member: 'M100', account: 'A-1001' }],
  items: [{ id: '1', mfr_code: 'WIX', part_number: '51515' }],
};
const call = (sellerUrl: string, headers?: Record<string, string>): SellerCall => ({
  member: { id: 'M100', sellerUrl, sellerAuth: { kind: 'none' }, timeoutMs: 2_000 },
  body,
  headers,
});

describe('recordingSellerClient', () => {
  it('records each call with member, status, reply and the contract verdict, and returns the outcome unchanged', async () => {
    const log = createExchangeLog({ limit: 10 });
    const client = recordingSellerClient(createSellerClient(), log);
    try {
      const honest = await client.call(call(`${seller.url}/seller`));
      expect(honest.kind).toBe('reply');
      await client.call(call(`${seller.url}/seller`, { 'x-mock-fault': 'wrong-original-mfr' }));
      await client.call(call(`${seller.url}/seller`, { 'x-mock-fault': 'http-status;status=502' }));
    } finally {
      await client.close();
    }
    expect(log.recent().map((s) => [s.member, s.service, s.http_status, s.verdict, s.rules])).toEqual([
      ['M100', 'item_inquiry', 200, 'ok', []],
      ['M100', 'item_inquiry', 200, 'broken', ['alternate.original-mfr']],
      ['M100', 'item_inquiry', 502, 'error', []],
    ]);
    expect(log.detail(1)?.request).toEqual(body);
    expect(log.detail(3)?.problem).toMatch(/502/);
  });

  it('records a seller that cannot be reached, with why', async () => {
    const log = createExchangeLog();
    const client = recordingSellerClient(createSellerClient(), log);
    try {
      // Port 9 (discard) on loopback: nothing listens there on these machines.
      expect((await client.call(call('http://127.0.0.1:9/seller'))).kind).toBe('unreachable');
    } finally {
      await client.close();
    }
    expect(log.recent()[0]).toMatchObject({
      http_status: null,
      verdict: 'error',
      problem: expect.stringMatching(/not usable|ECONNREFUSED|refused|reach/i),
    });
  });
});

describe('recordingSellerClient behind the gateway', () => {
  // M100 asks `seller`, M200 a second mock seller: a fault on one member stays on that member.
  async function inquireThroughGateway(faultOnM200?: string) {
    const second = await startMockSeller({ scenario: readDefaultScenario(), port: 0 });
    if (faultOnM200 !== undefined) second.seller.faults.add({ service: 'item_inquiry', fault: { kind: faultOnM200 } });
    const store = await createTestStore({ sellerUrl: `${seller.url}/seller` });
    await store.query("UPDATE members SET seller_url = $1 WHERE id = 'M200'", [`${second.url}/seller`]);
    const log = createExchangeLog();
    const sellerClient = recordingSellerClient(createSellerClient(), log);
    try {
      const app = createGateway({ store, directory: createDirectory(store), sellerClient, logger: false });
      const response = await app.request(`${V3_2}/item_inquiry`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${await mintDevToken('dev-key-1')}` },
        body: JSON.stringify({ items: [{ id: 'item-1', mfr_code: 'WIX', part_number: '51515' }] }),
      });
      return { status: response.status, log };
    } finally {
      await sellerClient.close();
      await store.close();
      await second.close();
    }
  }

  const locationsOf = (reply: unknown) =>
    (reply as { items: { locations: { id: string; description?: string }[] }[] }).items.flatMap((i) =>
      i.locations.map((l) => l.id),
    );

  it("keeps each member's own reply, not the merged buyer reply, so an honest inquiry over two members is ok throughout", async () => {
    const { status, log } = await inquireThroughGateway();
    expect(status).toBe(200);
    const rows = log.recent();
    expect(rows.map((r) => [r.member, r.verdict]).sort()).toEqual([
      ['M100', 'ok'],
      ['M200', 'ok'],
    ]);
    for (const row of rows) {
      const detail = log.detail(row.id)!;
      const own = row.member === 'M100' ? ['L101', 'L150'] : ['L201', 'L250'];
      expect(new Set(locationsOf(detail.reply))).toEqual(new Set(own));
      // What the seller sent: no buyer-side enrichment added by the merge.
      expect(JSON.stringify(detail.reply)).not.toContain('"description"');
    }
  });

  it('shows only the faulted member broken', async () => {
    const { log } = await inquireThroughGateway('extra-location');
    const verdicts = Object.fromEntries(log.recent().map((r) => [r.member, [r.verdict, r.rules]]));
    expect(verdicts).toEqual({ M100: ['ok', []], M200: ['broken', ['location.not-forwarded']] });
  });
});
