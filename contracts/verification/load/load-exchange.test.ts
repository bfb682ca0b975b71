import { afterAll, beforeAll, expect, it } from 'vitest';
import { startMockSeller, type RunningMockSeller } from '../../../mock-seller/index';
import type { ExploreCase } from '../explore/generators';
import { createLoadClient, type LoadClient } from './load-exchange';

// The load exchange remembers the last reply judged per request: a byte-identical reply gets
// the same verdict, any other is judged afresh — so a seller that starts breaking a rule
// mid-run is caught on the first changed reply.

let mock: RunningMockSeller;
let client: LoadClient;
beforeAll(async () => {
  mock = await startMockSeller();
  client = createLoadClient({ sellerUrl: `${mock.url}/seller`, timeoutMs: 5000 }, 2);
});
afterAll(async () => {
  await client.close();
  await mock.close();
});

const inquiry: ExploreCase = {
  operation: 'item-inquiry',
  request: {
    service: 'item_inquiry',
    locations: [{ id: 'L101', member: 'M100', account: 'A-1001' }],
    items: [{ id: 'a', mfr_code: 'WIX', part_number: '51515' }],
  },
};

it('judges a changed reply afresh, and a repeated one the same', async () => {
  expect((await client.exchange(inquiry)).findings).toEqual([]);
  expect((await client.exchange(inquiry)).findings).toEqual([]);
  mock.seller.faults.add({ service: 'item_inquiry', fault: { kind: 'change-id' }, count: 2 });
  const spoiled = await client.exchange(inquiry);
  expect(spoiled.findings.map((f) => f.rule)).toContain('item.unknown-id');
  expect((await client.exchange(inquiry)).findings.map((f) => f.rule)).toContain('item.unknown-id');
  expect((await client.exchange(inquiry)).findings).toEqual([]);
});

it('reports a reply past the deadline as a timeout', async () => {
  const slow = createLoadClient({ sellerUrl: `${mock.url}/seller`, timeoutMs: 50 }, 1);
  mock.seller.faults.add({ service: 'item_inquiry', fault: { kind: 'latency', ms: 400 }, count: 1 });
  const outcome = await slow.exchange(inquiry);
  await slow.close();
  expect(outcome).toMatchObject({ httpStatus: null, timedOut: true });
  expect(outcome.findings[0].message).toMatch(/no answer within 50 ms/);
});
