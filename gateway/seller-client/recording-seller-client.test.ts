import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockSeller, type RunningMockSeller, readDefaultScenario } from '../../mock-seller/index';
import { createExchangeLog } from '../../inspector/exchange-log';
import { createSellerClient } from './seller-client';
import { recordingSellerClient } from './recording-seller-client';
import type { SellerCall } from './seller-client.types';

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
    expect(log.recent()[0]).toMatchObject({ http_status: null, verdict: 'error', problem: expect.stringMatching(/not usable|ECONNREFUSED|refused|reach/i) });
  });
});
