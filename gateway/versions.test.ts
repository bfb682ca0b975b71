import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../shared/package-root';
import { startTestGateway, type TestGateway } from './testing/test-gateway';
import { V3_1, V3_2 } from './app';

// v3.1 item inquiry and place order: the same bodies and behaviour as v3.2. Two gateways in
// the same state (fresh store, fresh mock seller, one fixed clock) are given the same calls,
// one on each version's path; every answer must be identical.

const fixture = (name: string) =>
  JSON.parse(readFileSync(join(PACKAGE_ROOT, 'fixtures', 'payloads', `${name}.json`), 'utf8')) as Record<
    string,
    unknown
  >;
const CLOCK = Date.parse('2026-03-02T12:00:00Z');
const stockedOrder = {
  ...fixture('place-order.buyer-request'),
  purchase_order_number: 'PO-V31-1',
  items: [{ id: 'line-1', mfr_code: 'BOS', part_number: 'BC905', location_id: 'L150', quantity_ordered: 2 }],
};

let v32: TestGateway;
let v31: TestGateway;

beforeAll(async () => {
  [v32, v31] = await Promise.all([startTestGateway({ clock: () => CLOCK }), startTestGateway({ clock: () => CLOCK })]);
}, 60_000);
afterAll(async () => {
  await Promise.all([v32?.close(), v31?.close()]);
});

async function answer(
  gw: TestGateway,
  base: string,
  operation: string,
  body: unknown,
  options: Parameters<TestGateway['post']>[2] = {},
) {
  const response = await gw.post(`${base}/${operation}`, body, options);
  // The mock seller numbers orders from its own wall clock; that is the seller's doing, not the version's.
  const text = (await response.text()).replace(/"order_number":"SO-[A-Z0-9]+-/, '"order_number":"SO-…-');
  return { status: response.status, contentType: response.headers.get('content-type'), body: text };
}

const cases: [string, string, unknown, Parameters<TestGateway['post']>[2]?][] = [
  ['item inquiry', 'item_inquiry', fixture('item-inquiry.buyer-request')],
  ['item inquiry at all locations', 'item_inquiry', { items: [{ id: 'a', mfr_code: 'BOS', part_number: 'BC905' }] }],
  [
    'item inquiry, another buyer',
    'item_inquiry',
    { items: [{ id: 'a', mfr_code: 'BOS', part_number: 'BC905' }] },
    { user: 'other' },
  ],
  [
    "item inquiry at a location not the buyer's",
    'item_inquiry',
    {
      items: [{ id: 'a', mfr_code: 'BOS', part_number: 'BC905' }],
      locations: [{ id: 'L102', member: 'M100', account: 'A-1002' }],
    },
  ],
  ['item inquiry with a bad body', 'item_inquiry', { items: [{ id: 'a' }], extra: 1 }],
  ['place order', 'place_order', fixture('place-order.buyer-request')],
  ['place order of a stocked part', 'place_order', stockedOrder],
  ['place order repeated (answered from the first)', 'place_order', fixture('place-order.buyer-request')],
  ['place order with a bad body', 'place_order', { purchase_order_number: '', items: [] }],
  ['place order without a token', 'place_order', fixture('place-order.buyer-request'), { token: 'not-a-jwt' }],
];

describe('v3.1 item inquiry and place order', () => {
  it('run the very handlers of v3.2', () => {
    for (const operation of ['item_inquiry', 'place_order']) {
      const handlers = (base: string) =>
        v32.app.routes.filter((r) => r.method === 'POST' && r.path === `${base}/${operation}`).map((r) => r.handler);
      expect(handlers(V3_1).length).toBeGreaterThan(0);
      expect(handlers(V3_1)).toEqual(handlers(V3_2));
    }
  });

  it('answer exactly as v3.2 on the same inputs', async () => {
    let successes = 0;
    for (const [name, operation, body, options] of cases) {
      const [a, b] = [
        await answer(v32, V3_2, operation, body, options),
        await answer(v31, V3_1, operation, body, options),
      ];
      expect(b, name).toEqual(a);
      if (a.status === 200) successes += 1;
    }
    expect(successes).toBeGreaterThanOrEqual(4);
  });

  it('offer no invoice or statement', async () => {
    expect((await v31.post(`${V3_1}/invoice`, fixture('invoice.buyer-request'))).status).toBe(404);
    expect((await v31.post(`${V3_1}/statement`, fixture('statement.buyer-request'))).status).toBe(404);
  });
});
