import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Hono } from 'hono';
import { isDeepStrictEqual } from 'node:util';
import { checkSellerReply } from '../../contracts/index';
import { V3_1, V3_2 } from '../app';
import { startTestGateway, type TestGateway } from '../testing/test-gateway';
import { checkSellerReplyInOnePass, type SellerReplyCheck } from './one-pass-check';
import { ALL_SPEEDUPS, NO_SPEEDUPS, SPEEDUP_NAMES, speedups, type Speedups } from './speedups';

// The speed-ups against their plain versions through the whole gateway: the same requests,
// honest and broken, sent to a gateway with every speed-up off (the oracle), with all on, and
// with each on alone, must get the same answers byte for byte. And a Hono developer's
// middleware reaches every route, the buyer operations included, whichever runner they use.

const ITEMS = [
  { id: 'item-1', mfr_code: 'WIX', part_number: '51515' },
  { id: 'item-2', mfr_code: 'GAT', part_number: '22433' },
];
const AT_L101 = [{ id: 'L101', member: 'M100', account: 'A-1001' }];
const ORDER = {
  purchase_order_number: 'PO-SPEEDUPS-1',
  order_type: 1,
  comment: 'speed-ups',
  items: [{ id: 'line-1', mfr_code: 'WIX', part_number: '51515', location_id: 'L101', quantity_ordered: 2 }],
};

interface Exchange {
  path: string;
  body: unknown;
  headers?: Record<string, string>;
}

const INQUIRY = `${V3_2}/item_inquiry`;
const EXCHANGES: Exchange[] = [
  // Every location of the user (two members: the full merge), then one listed (one member: the shortcut), twice.
  { path: INQUIRY, body: { items: ITEMS } },
  { path: INQUIRY, body: { items: ITEMS, locations: AT_L101 } },
  { path: INQUIRY, body: { items: ITEMS, locations: AT_L101 } },
  { path: `${V3_1}/item_inquiry`, body: { items: ITEMS } },
  // Replies that break the contract, each its own way.
  ...[
    'add-unknown-id',
    'change-id;id=item-2',
    'drop-id;id=item-2',
    'extra-location',
    'missing-field;field=/items/0/locations',
    'missing-field;field=/items/0/status_code',
    'wrong-original-part;id=item-1',
    'wrong-original-mfr;id=item-1',
  ].map((fault) => ({ path: INQUIRY, body: { items: ITEMS }, headers: { 'x-mock-fault': fault } })),
  // Requests the gateway refuses.
  { path: INQUIRY, body: { items: ITEMS, locations: [] } },
  { path: INQUIRY, body: { items: [] } },
  { path: INQUIRY, body: '{"items": [' },
  { path: INQUIRY, body: { items: ITEMS }, headers: { 'content-type': 'text/plain' } },
  { path: INQUIRY, body: { items: ITEMS, locations: [{ id: 'L999', member: 'M100', account: 'A-1001' }] } },
  // An order, then the same again (answered from the first), and the documents.
  { path: `${V3_2}/place_order`, body: ORDER, headers: { 'idempotency-key': 'speedups-1' } },
  { path: `${V3_2}/place_order`, body: ORDER, headers: { 'idempotency-key': 'speedups-1' } },
  { path: `${V3_2}/place_order`, body: { ...ORDER, items: [] } },
  { path: `${V3_2}/invoice`, body: { member: 'M100', from_invoice_date: '2026-09-01', to_invoice_date: '2026-09-30' } },
  { path: `${V3_2}/invoice`, body: '{' },
  {
    path: `${V3_2}/statement`,
    body: { account: 'A-2001', from_statement_date: '2026-08-01', to_statement_date: '2026-12-31' },
  },
  { path: `${V3_2}/statement`, body: { from_statement_date: '2026-01-01' } },
  { path: `${V3_2}/no_such_operation`, body: {} },
];

/** What a buyer sees of an answer, less what differs by request (its id, the time). */
async function answersOf(gw: TestGateway): Promise<string[]> {
  const seen: string[] = [];
  for (const { path, body, headers } of EXCHANGES) {
    const response = await gw.post(path, body, { headers });
    const kept = ['content-type', 'x-contract-warning', 'idempotent-replayed'].map((name) =>
      response.headers.get(name),
    );
    const text = (await response.text())
      .replaceAll(gw.seller.url, 'http://seller')
      .replace(/"SO-[A-Z0-9]+-/g, '"SO-(time)-');
    seen.push(`${path} ${response.status} ${JSON.stringify(kept)}\n${text}`);
  }
  return seen;
}

async function answersWith(choice: Speedups): Promise<string[]> {
  const gw = await startTestGateway({ config: { forwardHeaders: ['x-mock-fault'] }, speedups: choice });
  try {
    return await answersOf(gw);
  } finally {
    await gw.close();
  }
}

describe('speed-ups against their plain versions', () => {
  let plain: string[];
  beforeAll(async () => {
    plain = await answersWith(NO_SPEEDUPS);
  });

  it('the plain gateway answers every kind of exchange the corpus means to try', () => {
    const statuses = new Set(plain.map((answer) => Number(answer.split(' ')[1])));
    expect([...statuses].sort()).toEqual([200, 404, 415, 422, 502]);
    expect(plain.filter((answer) => answer.includes('"true"'))).toHaveLength(1); // the order answered again
  });

  it('all of them on answer exactly what the plain versions answer', async () => {
    expect(await answersWith(ALL_SPEEDUPS)).toEqual(plain);
  });

  it.each(SPEEDUP_NAMES)('%s on alone answers exactly what the plain versions answer', async (name) => {
    expect(await answersWith(speedups([name]))).toEqual(plain);
  });

  it("the one-pass check's verdict is the plain check's on every seller reply, notes included, the reply untouched", async () => {
    // Notes (a lenient member's findings) may not change an answer's bytes: the verdicts are compared too.
    const compared: { operation: string; same: boolean }[] = [];
    const both: SellerReplyCheck = (operation, request, reply) => {
      const copy = structuredClone(reply);
      const reference = checkSellerReply(operation, request, reply);
      const onePass = checkSellerReplyInOnePass(operation, request, copy);
      compared.push({ operation, same: isDeepStrictEqual(onePass, reference) && isDeepStrictEqual(copy, reply) });
      return reference;
    };
    expect(await answersWith({ ...ALL_SPEEDUPS, checkSellerReply: both })).toEqual(plain);
    expect(new Set(compared.map((c) => c.operation))).toEqual(
      new Set(['item-inquiry', 'place-order', 'invoice', 'statement']),
    );
    expect(compared.filter((c) => !c.same)).toEqual([]);
  });
});

describe("a Hono developer's middleware", () => {
  const gateways: TestGateway[] = [];
  afterAll(() => Promise.all(gateways.map((gw) => gw.close())));

  it.each([
    ['own-runner', ALL_SPEEDUPS],
    ['middleware', NO_SPEEDUPS],
  ] as const)('reaches every route of the gateway, the buyer operations included (%s)', async (runner, choice) => {
    const gw = await startTestGateway({ speedups: choice });
    gateways.push(gw);
    expect(choice.buyerRoutes).toBe(runner);
    // The Hono way to add middleware to an app built elsewhere: an app of one's own, its
    // middleware first, the gateway mounted on it.
    const reached: string[] = [];
    const outer = new Hono();
    outer.use('*', async (c, next) => {
      reached.push(`${c.req.method} ${c.req.path}`);
      await next();
      c.header('x-added-by', 'outer');
    });
    outer.route('/', gw.app);

    const routes = [...new Set(gw.app.routes.filter((r) => r.method !== 'ALL').map((r) => `${r.method} ${r.path}`))];
    expect(routes).toContain(`POST ${V3_2}/item_inquiry`);
    expect(routes.length).toBeGreaterThan(20);
    const token = await gw.token();
    for (const route of [...routes, 'GET /no/such/path']) {
      const [method, pattern] = route.split(' ');
      const path = pattern.replace(/:[a-z_]+/g, 'x');
      const response = await outer.request(path, {
        method,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: method === 'GET' || method === 'HEAD' ? undefined : '{}',
      });
      expect(response.headers.get('x-added-by'), route).toBe('outer');
    }
    expect(reached).toHaveLength(routes.length + 1);
  });
});
