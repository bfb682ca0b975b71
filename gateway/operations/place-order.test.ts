import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../testing/test-gateway';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGateway, V3_1, V3_2 } from '../app';
import { gatewayConfig } from '../gateway-config';
import { countingStore } from '../testing/counting-store';

// Place order: recorded before it is forwarded, never placed twice.

const PATH = `${V3_2}/place_order`;
interface Reply {
  order_number?: string;
  status_code: number;
  message?: string;
  items?: { id: string; status_code: number; quantity_ordered: number }[];
  errors?: { path: string; message: string }[];
}

let gw: TestGateway;
beforeAll(async () => {
  // A short seller deadline keeps the timeout tests quick.
  gw = await startTestGateway({ setupSql: ['UPDATE members SET timeout_ms = 600'], config: { orderWaitMs: 5_000 } });
});
afterEach(() => gw.seller.seller.faults.clear());
afterAll(() => gw.close());

let po = 0;
const nextPo = () => `PO-TEST-${++po}`;
const order = (
  purchaseOrderNumber: string,
  items: object[] = [{ id: 'line-1', mfr_code: 'WIX', part_number: '51515', location_id: 'L101', quantity_ordered: 2 }],
) => ({
  purchase_order_number: purchaseOrderNumber,
  order_type: 1,
  comment: 'test order',
  items,
});

async function place(
  body: unknown,
  options: { user?: 'demo' | 'other'; headers?: Record<string, string>; path?: string } = {},
) {
  const response = await gw.post(options.path ?? PATH, body, options);
  return {
    status: response.status,
    headers: response.headers,
    text: await response.clone().text(),
    body: (await response.json()) as Reply,
  };
}

const sellerOrdersFor = (purchaseOrderNumber: string) =>
  gw.seller.seller.journal
    .entries({ service: 'place_order' })
    .filter((e) => (e.request as { purchase_order_number: string }).purchase_order_number === purchaseOrderNumber);

async function orderRow(purchaseOrderNumber: string) {
  const { rows } = await gw.store.query<{
    status: string;
    attempts: number;
    forwarded_request: { items: { account_id: string; member_id: string }[] };
    seller_reply: unknown;
    member_id: string;
  }>(
    'SELECT status, attempts, forwarded_request, seller_reply, member_id FROM orders WHERE purchase_order_number = $1',
    [purchaseOrderNumber],
  );
  return rows;
}

describe('place order', () => {
  it('forwards the order with account and member per item, records it confirmed, answers with floats', async () => {
    const number = nextPo();
    const { status, body, text } = await place(order(number));
    expect(status).toBe(200);
    expect(body.status_code).toBe(2000);
    expect(body.order_number).toMatch(/\S/);
    expect(text).toContain('"quantity_ordered":2.0');
    const sent = sellerOrdersFor(number);
    expect(sent).toHaveLength(1);
    expect(sent[0].request).toMatchObject({
      service: 'place_order',
      order_type: 1,
      items: [{ id: 'line-1', location_id: 'L101', account_id: 'A-1001', member_id: 'M100' }],
    });
    const [row] = await orderRow(number);
    expect(row).toMatchObject({ status: 'confirmed', attempts: 1, member_id: 'M100' });
    expect(row.forwarded_request.items[0]).toMatchObject({ account_id: 'A-1001', member_id: 'M100' });
    expect(row.seller_reply).toMatchObject({ order_number: body.order_number });
  });

  it('answers a repeated purchase order number with the first result and does not order again', async () => {
    const number = nextPo();
    const first = await place(order(number));
    const again = await place(order(number));
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(sellerOrdersFor(number)).toHaveLength(1);
  });

  it('honours an Idempotency-Key the same way', async () => {
    const number = nextPo();
    const headers = { 'idempotency-key': `key-${number}` };
    const first = await place(order(number), { headers });
    const again = await place(order(number), { headers });
    expect(again.body.order_number).toBe(first.body.order_number);
    expect(sellerOrdersFor(number)).toHaveLength(1);
    const reused = await place(order(nextPo()), { headers });
    expect(reused.status).toBe(422);
    expect(reused.body.message).toContain(
      `Idempotency-Key 'key-${number}' was already used for purchase order '${number}'`,
    );
  });

  it('places exactly one order at the seller when duplicates arrive concurrently', async () => {
    const number = nextPo();
    // The seller takes a moment, so the duplicates arrive while the first is in flight.
    gw.seller.seller.faults.add({ service: 'place_order', fault: { kind: 'latency', ms: 150 } });
    const answers = await Promise.all(Array.from({ length: 8 }, () => place(order(number))));
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
    expect(new Set(answers.map((a) => a.body.order_number)).size).toBe(1);
    expect(sellerOrdersFor(number)).toHaveLength(1);
    expect(await orderRow(number)).toHaveLength(1);
  });

  it('refuses a location that cannot order with 3110', async () => {
    const { status, body } = await place(
      order(nextPo(), [{ id: 'l1', mfr_code: 'WIX', part_number: '51515', location_id: 'L250', quantity_ordered: 1 }]),
    );
    expect(status).toBe(403);
    expect(body.status_code).toBe(3110);
    expect(body.errors?.[0]).toEqual({
      path: '/items/0/location_id',
      message: "you cannot order from location 'L250' (can_order is false)",
    });
  });

  it("refuses another buyer's location with 3110 and records nothing", async () => {
    const number = nextPo();
    const { body } = await place(
      order(number, [{ id: 'l1', mfr_code: 'WIX', part_number: '51515', location_id: 'L102', quantity_ordered: 1 }]),
    );
    expect(body.status_code).toBe(3110);
    expect(await orderRow(number)).toHaveLength(0);
  });

  it('refuses items spanning several sellers with 4422 explaining why', async () => {
    const { status, body } = await place(
      order(nextPo(), [
        { id: 'l1', mfr_code: 'WIX', part_number: '51515', location_id: 'L101', quantity_ordered: 1 },
        { id: 'l2', mfr_code: 'WIX', part_number: '51515', location_id: 'L201', quantity_ordered: 1 },
      ]),
    );
    expect(status).toBe(422);
    expect(body.status_code).toBe(4422);
    expect(body.message).toContain('one order goes to one seller');
  });

  it('validates the body, listing every bad path', async () => {
    const { body } = await place({
      purchase_order_number: '',
      order_type: 9,
      items: [{ id: 'x', mfr_code: 'WIX', part_number: '1', location_id: 'L101', quantity_ordered: 0 }],
    });
    expect(body.status_code).toBe(4422);
    expect(body.errors!.map((e) => e.path).sort()).toEqual([
      '/items/0/quantity_ordered',
      '/order_type',
      '/purchase_order_number',
    ]);
  });

  it('records a timed-out order as unknown and never sends it again', async () => {
    const number = nextPo();
    gw.seller.seller.faults.add({ service: 'place_order', fault: { kind: 'latency', ms: 1_200 }, count: 1 });
    const first = await place(order(number));
    expect(first.status).toBe(504);
    expect(first.body.status_code).toBe(4408);
    expect(first.body.message).toContain('will not be sent again');
    expect((await orderRow(number))[0].status).toBe('unknown');
    const again = await place(order(number));
    expect(again.body).toEqual(first.body);
    // The mock seller journals the slow request when its latency is over.
    await expect.poll(() => sellerOrdersFor(number).length, { interval: 20, timeout: 5_000 }).toBeGreaterThan(0);
    expect(sellerOrdersFor(number)).toHaveLength(1);
  });

  it('records an order answered with a 5xx as unknown and never sends it again: the seller may have placed it', async () => {
    const number = nextPo();
    gw.seller.seller.faults.add({ service: 'place_order', fault: { kind: 'http-status', status: 500 }, count: 1 });
    const first = await place(order(number));
    expect(first.status).toBe(503);
    expect(first.body.status_code).toBe(5503);
    expect(first.body.message).toContain(`purchase order '${number}' will not be sent again`);
    expect((await orderRow(number))[0].status).toBe('unknown');
    const again = await place(order(number));
    expect(again.status).toBe(503);
    expect(again.body).toEqual(first.body);
    expect(sellerOrdersFor(number)).toHaveLength(1);
  });

  it('records an order answered 503 as failed and places it on retry: by HTTP a 503 was not handled', async () => {
    const number = nextPo();
    gw.seller.seller.faults.add({ service: 'place_order', fault: { kind: 'http-status', status: 503 }, count: 1 });
    const first = await place(order(number));
    expect(first.status).toBe(503);
    expect(first.body.status_code).toBe(5503);
    expect(first.body.message).toContain(`the order was not placed, so purchase order '${number}' may be sent again`);
    expect((await orderRow(number))[0].status).toBe('failed');
    const retry = await place(order(number));
    expect(retry.status).toBe(200);
    expect(retry.body.status_code).toBe(2000);
    expect(sellerOrdersFor(number)).toHaveLength(2);
  });

  it('keeps the number bound after a redirect: a 303 may follow an order the seller took', async () => {
    const number = nextPo();
    gw.seller.seller.faults.add({ service: 'place_order', fault: { kind: 'http-status', status: 303 }, count: 1 });
    const first = await place(order(number));
    expect(first.status).toBe(502);
    expect(first.body.message).toContain('will not be sent again');
    expect((await place(order(number))).body).toEqual(first.body);
    expect(sellerOrdersFor(number)).toHaveLength(1);
  });

  it('records an order whose connection was reset once sent as unknown and never sends it again', async () => {
    const number = nextPo();
    gw.seller.seller.faults.add({ service: 'place_order', fault: { kind: 'reset' }, count: 1 });
    const first = await place(order(number));
    expect(first.status).toBe(503);
    expect(first.body.message).toContain('will not be sent again');
    expect((await orderRow(number))[0].status).toBe('unknown');
    expect((await place(order(number))).body).toEqual(first.body);
    expect(sellerOrdersFor(number)).toHaveLength(1);
  });

  it('records an order whose seller refused the connection as failed, and places it on retry', async () => {
    const number = nextPo();
    const sellerUrl = (await gw.store.query<{ seller_url: string }>(`SELECT seller_url FROM members WHERE id = 'M100'`))
      .rows[0].seller_url;
    // Port 9 (discard) on the loopback: nothing listens, so the connection is refused.
    await gw.store.query(`UPDATE members SET seller_url = 'http://127.0.0.1:9/seller' WHERE id = 'M100'`);
    gw.directory.invalidate();
    try {
      const first = await place(order(number));
      expect(first.status).toBe(503);
      expect(first.body.status_code).toBe(5503);
      expect(first.body.message).toContain(`the order was not placed, so purchase order '${number}' may be sent again`);
      expect((await orderRow(number))[0].status).toBe('failed');
    } finally {
      await gw.store.query(`UPDATE members SET seller_url = $1 WHERE id = 'M100'`, [sellerUrl]);
      gw.directory.invalidate();
    }
    const retry = await place(order(number));
    expect(retry.status).toBe(200);
    expect(retry.body.status_code).toBe(2000);
    expect(await orderRow(number)).toMatchObject([{ status: 'confirmed', attempts: 2 }]);
    expect(sellerOrdersFor(number)).toHaveLength(1);
  });

  it('leaves the number free when the seller refuses the order with a 4xx: the corrected order is then placed', async () => {
    const number = nextPo();
    gw.seller.seller.faults.add({ service: 'place_order', fault: { kind: 'http-status', status: 400 }, count: 1 });
    const refused = await place(order(number));
    expect(refused.status).toBe(502);
    expect(refused.body.status_code).toBe(5500);
    expect(refused.body.message).toContain(`the order was not placed, so purchase order '${number}' may be sent again`);
    expect((await orderRow(number))[0].status).toBe('failed');
    const corrected = await place(
      order(number, [
        { id: 'line-1', mfr_code: 'WIX', part_number: '51515', location_id: 'L101', quantity_ordered: 1 },
      ]),
    );
    expect(corrected.status).toBe(200);
    expect(corrected.body.status_code).toBe(2000);
    const sent = sellerOrdersFor(number);
    expect(sent.map((e) => e.http_status)).toEqual([400, 200]);
    expect(sent[1].request).toMatchObject({ items: [{ quantity_ordered: 1 }] });
    expect(await orderRow(number)).toMatchObject([{ status: 'confirmed', attempts: 2 }]);
  });

  it('places the corrected order after a body the gateway or the seller refused (quantity_ordered 1e400)', async () => {
    const number = nextPo();
    // Refused before forwarding (validation) or by the seller (the value arrives as null): never placed either way.
    const raw = `{"purchase_order_number":"${number}","order_type":1,"items":[{"id":"line-1","mfr_code":"WIX","part_number":"51515","location_id":"L101","quantity_ordered":1e400}]}`;
    const refused = await place(raw);
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.body.status_code).not.toBe(2000);
    const corrected = await place(
      order(number, [
        { id: 'line-1', mfr_code: 'WIX', part_number: '51515', location_id: 'L101', quantity_ordered: 1 },
      ]),
    );
    expect(corrected.status).toBe(200);
    expect(sellerOrdersFor(number).filter((e) => e.http_status === 200)).toHaveLength(1);
  });

  it('records nothing for an order refused before forwarding, so the number stays free', async () => {
    const number = nextPo();
    const notOrderable = await place(
      order(number, [{ id: 'l1', mfr_code: 'WIX', part_number: '51515', location_id: 'L250', quantity_ordered: 1 }]),
    );
    expect(notOrderable.status).toBe(403);
    const invalid = await place({ ...order(number), order_type: 9 });
    expect(invalid.status).toBe(422);
    expect(await orderRow(number)).toHaveLength(0);
    const placed = await place(order(number));
    expect(placed.status).toBe(200);
    expect(sellerOrdersFor(number)).toHaveLength(1);
  });

  it('refuses the same number with a different order (409 naming the field) while the first stands, and still replays the first', async () => {
    const number = nextPo();
    const first = await place(order(number));
    expect(first.status).toBe(200);
    const other = await place(
      order(number, [
        { id: 'line-1', mfr_code: 'WIX', part_number: '51515', location_id: 'L101', quantity_ordered: 3 },
      ]),
    );
    expect(other.status).toBe(409);
    expect(other.body.status_code).toBe(4422);
    expect(other.body.order_number).toBeUndefined();
    expect(other.body.message).toContain(
      `purchase order '${number}' names another order, which was placed; this one differs from it at /items/0/quantity_ordered`,
    );
    expect(other.body.errors).toEqual([
      { path: '/items/0/quantity_ordered', message: `differs from the order first sent as purchase order '${number}'` },
    ]);
    // Through the v3.1 path too (same handler), and for a field the first order lacked.
    const v31 = await place({ ...order(number), ship_via: 'UPS' }, { path: `${V3_1}/place_order` });
    expect(v31.status).toBe(409);
    expect(v31.body.errors?.[0].path).toBe('/ship_via');
    const again = await place(order(number));
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(sellerOrdersFor(number)).toHaveLength(1);
  });

  it('replays the first answer for the same order written with other key order and number spelling', async () => {
    const number = nextPo();
    const first = await place(order(number));
    const respelled = `{"items":[{"quantity_ordered":2.0,"location_id":"L101","part_number":"51515","mfr_code":"WIX","id":"line-1"}],"comment":"test order","order_type":1,"purchase_order_number":"${number}"}`;
    const again = await place(respelled);
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(sellerOrdersFor(number)).toHaveLength(1);
  });

  it('refuses a different order under the same Idempotency-Key and number with 409', async () => {
    const number = nextPo();
    const headers = { 'idempotency-key': `key-diff-${number}` };
    expect((await place(order(number), { headers })).status).toBe(200);
    const other = await place({ ...order(number), comment: 'another' }, { headers });
    expect(other.status).toBe(409);
    expect(other.body.errors?.[0].path).toBe('/comment');
    expect(sellerOrdersFor(number)).toHaveLength(1);
  });

  it('refuses a different order under the number of one whose outcome is unknown, naming it as possibly placed', async () => {
    const number = nextPo();
    gw.seller.seller.faults.add({ service: 'place_order', fault: { kind: 'latency', ms: 1_200 }, count: 1 });
    expect((await place(order(number))).status).toBe(504);
    const other = await place({ ...order(number), order_type: 3 });
    expect(other.status).toBe(409);
    expect(other.body.message).toContain('which may have been placed');
    expect(other.body.errors?.[0].path).toBe('/order_type');
    expect((await orderRow(number))[0].status).toBe('unknown');
  });

  it('places exactly one of two different orders sent concurrently under one number; the other gets 409', async () => {
    const number = nextPo();
    // The seller takes a moment, so the second arrives while the first is in flight.
    gw.seller.seller.faults.add({ service: 'place_order', fault: { kind: 'latency', ms: 150 } });
    const bodies = [1, 4].map((quantity) =>
      order(number, [
        { id: 'line-1', mfr_code: 'WIX', part_number: '51515', location_id: 'L101', quantity_ordered: quantity },
      ]),
    );
    const answers = await Promise.all(bodies.map((body) => place(body)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const refused = answers.find((a) => a.status === 409)!;
    expect(refused.body.message).toContain('which is being placed');
    expect(refused.body.errors?.[0].path).toBe('/items/0/quantity_ordered');
    const sent = sellerOrdersFor(number);
    expect(sent).toHaveLength(1);
    const placedQuantity = answers.findIndex((a) => a.status === 200) === 0 ? 1 : 4;
    expect(sent[0].request).toMatchObject({ items: [{ quantity_ordered: placedQuantity }] });
  });

  it("keeps one buyer's purchase order numbers apart from another's", async () => {
    const number = nextPo();
    await place(order(number));
    const other = await place(
      order(number, [{ id: 'l1', mfr_code: 'WIX', part_number: '51515', location_id: 'L102', quantity_ordered: 1 }]),
      {
        user: 'other',
      },
    );
    expect(other.status).toBe(200);
    expect(sellerOrdersFor(number)).toHaveLength(2);
  });
});

// What the store or the seller cannot carry is refused at its field before anything is recorded
// or forwarded. Bodies are written by hand: 1e400 and a lone surrogate are what a fuzzer sends.
describe('place order refuses values beyond the contract bounds', () => {
  /** One order line as JSON text; `over` replaces fields with JSON written as is. */
  const line = (over: Record<string, string> = {}) => {
    const fields = {
      id: '"line-1"',
      mfr_code: '"WIX"',
      part_number: '"51515"',
      location_id: '"L101"',
      quantity_ordered: '2',
      ...over,
    };
    return `{${Object.entries(fields)
      .map(([name, json]) => `"${name}":${json}`)
      .join(',')}}`;
  };
  const raw = (number: string, { item = line(), comment = '"test order"' } = {}) =>
    `{"purchase_order_number":"${number}","order_type":1,"comment":${comment},"items":[${item}]}`;

  async function refused(path: string, body: string, field: string) {
    const response = await gw.post(path, body);
    const reply = (await response.json()) as Reply;
    expect(response.status, body.slice(0, 200)).toBe(422);
    expect(reply.status_code).toBe(4422);
    expect(reply.errors!.map((e) => e.path)).toEqual([field]);
    return reply;
  }

  it.each([V3_2, V3_1])(
    '%s: quantity 1e400 is 4422 at its path, nothing forwarded or recorded; the number then places',
    async (version) => {
      const number = nextPo();
      const reply = await refused(
        `${version}/place_order`,
        raw(number, { item: line({ quantity_ordered: '1e400' }) }),
        '/items/0/quantity_ordered',
      );
      expect(reply.errors![0].message).toBe('must be a finite number');
      expect(sellerOrdersFor(number)).toHaveLength(0);
      expect(await orderRow(number)).toEqual([]);

      const placed = await place(order(number));
      expect(placed.status).toBe(200);
      expect(sellerOrdersFor(number)).toHaveLength(1);
      expect(sellerOrdersFor(number)[0].request).toMatchObject({ items: [{ quantity_ordered: 2 }] });
    },
  );

  it('refuses a NUL or a lone surrogate in the PO number, an item id, a mfr code, a location id and the comment', async () => {
    for (const bad of ['\\u0000', '\\ud800', '\\udfff']) {
      const number = nextPo();
      await refused(PATH, raw(`${number}${bad}`), '/purchase_order_number');
      await refused(PATH, raw(number, { item: line({ id: `"x${bad}"` }) }), '/items/0/id');
      await refused(PATH, raw(number, { item: line({ mfr_code: `"WIX${bad}"` }) }), '/items/0/mfr_code');
      await refused(PATH, raw(number, { item: line({ location_id: `"L101${bad}"` }) }), '/items/0/location_id');
      await refused(PATH, raw(number, { comment: `"note ${bad}"` }), '/comment');
      expect(sellerOrdersFor(number)).toHaveLength(0);
      expect(await orderRow(number)).toEqual([]);
    }
  });

  it('accepts a surrogate pair (an emoji) where a lone half is refused', async () => {
    const number = nextPo();
    const { status } = await place({ ...order(number), comment: 'rush \u{1F69A}' });
    expect(status).toBe(200);
    expect(sellerOrdersFor(number)[0].request).toMatchObject({ comment: 'rush \u{1F69A}' });
  });

  it('refuses an overlong PO number (under the body limit) and a quantity past the maximum, naming them', async () => {
    const long = await refused(PATH, raw('P'.repeat(500_000)), '/purchase_order_number');
    expect(long.errors![0].message).toBe('must have at most 100 characters');
    await refused(PATH, raw(nextPo(), { item: line({ quantity_ordered: '100001' }) }), '/items/0/quantity_ordered');
    expect((await gw.store.query('SELECT 1 FROM orders WHERE length(purchase_order_number) > 100')).rows).toEqual([]);
  });
});

// A seller reply is stored (jsonb), which holds no NUL: such a reply is refused as a contract
// breach and the order recorded unknown, not a failed write that leaves it in flight.
describe('place order with a seller that answers a NUL', () => {
  let seller: Server;
  let own: TestGateway;
  let replyBody =
    '{"order_number":"SO-1\\u0000","status_code":2000,"items":[{"id":"line-1","status_code":1,"quantity_ordered":2.0}]}';
  let replyStatus = 200;
  beforeAll(async () => {
    seller = createServer((_, res) => {
      res.statusCode = replyStatus;
      res.setHeader('content-type', 'application/json');
      res.end(replyBody);
    });
    await new Promise<void>((resolve) => seller.listen(0, '127.0.0.1', resolve));
    const { port } = seller.address() as AddressInfo;
    own = await startTestGateway({ setupSql: [`UPDATE members SET seller_url = 'http://127.0.0.1:${port}/seller'`] });
  });
  afterAll(async () => {
    await own?.close();
    await new Promise((resolve) => seller.close(resolve));
  });

  it('answers 502 / 5500 at the field, records the order unknown, and answers a repeat the same', async () => {
    const number = nextPo();
    const first = await own.post(PATH, order(number));
    expect(first.status).toBe(502);
    expect(await first.json()).toMatchObject({ status_code: 5500, errors: [{ path: '/order_number' }] });
    const { rows } = await own.store.query<{ status: string }>(
      'SELECT status FROM orders WHERE purchase_order_number = $1',
      [number],
    );
    expect(rows).toEqual([{ status: 'unknown' }]);
    const repeat = await own.post(PATH, order(number));
    expect(repeat.status).toBe(502);
  });

  it('refuses the same way a NUL in a field the seller adds beyond the contract (stored with the rest)', async () => {
    replyBody =
      '{"order_number":"SO-2","status_code":2000,"items":[{"id":"line-1","status_code":1,"quantity_ordered":2.0,"bin\\u0000":"x"}],"note":"n"}';
    const number = nextPo();
    const first = await own.post(PATH, order(number));
    expect(first.status).toBe(502);
    expect(await first.json()).toMatchObject({ status_code: 5500, errors: [{ path: '/items/0/bin\u0000' }] });
    const { rows } = await own.store.query<{ status: string }>(
      'SELECT status FROM orders WHERE purchase_order_number = $1',
      [number],
    );
    expect(rows).toEqual([{ status: 'unknown' }]);
  });

  it('records a refusal whose body holds a NUL or a lone surrogate (quoted in the answer) and frees the PO number', async () => {
    replyStatus = 400;
    replyBody = 'bad \u0000 line \ud800 here';
    const number = nextPo();
    const first = await own.post(PATH, order(number));
    expect(first.status).toBe(502);
    const { rows } = await own.store.query<{ status: string; error: string }>(
      'SELECT status, error FROM orders WHERE purchase_order_number = $1',
      [number],
    );
    expect(rows.map((r) => r.status)).toEqual(['failed']);
    replyStatus = 200;
    replyBody =
      '{"order_number":"SO-3","status_code":2000,"items":[{"id":"line-1","status_code":1,"quantity_ordered":2.0}]}';
    expect((await own.post(PATH, order(number))).status).toBe(200);
  });
});

// A gateway instance that crashed mid-order leaves its row received or forwarded. The crash is
// simulated by writing that row directly; the injected clock then moves past the staleness
// bound (member timeout 600 ms + margin) so the row is no longer in flight.
describe('place order left in flight by a stopped gateway instance', () => {
  const TIMEOUT_MS = 600;
  const MARGIN_MS = 1_000;
  let nowMs = Date.now();
  let crashed: TestGateway;
  beforeAll(async () => {
    crashed = await startTestGateway({
      setupSql: [`UPDATE members SET timeout_ms = ${TIMEOUT_MS}`],
      config: { orderWaitMs: 300, orderStaleMarginMs: MARGIN_MS },
      clock: () => nowMs,
    });
  });
  afterEach(() => crashed.seller.seller.faults.clear());
  afterAll(() => crashed.close());

  const post = async (body: unknown) => {
    const response = await crashed.post(PATH, body);
    return {
      status: response.status,
      replayed: response.headers.get('idempotent-replayed'),
      body: (await response.json()) as Reply,
    };
  };
  const sentFor = (purchaseOrderNumber: string) =>
    crashed.seller.seller.journal
      .entries({ service: 'place_order' })
      .filter((e) => (e.request as { purchase_order_number: string }).purchase_order_number === purchaseOrderNumber);
  const rowOf = async (purchaseOrderNumber: string) =>
    (
      await crashed.store.query<{ status: string; attempts: number; answer: unknown }>(
        'SELECT status, attempts, answer FROM orders WHERE purchase_order_number = $1',
        [purchaseOrderNumber],
      )
    ).rows;

  /** The row a crashed instance leaves behind: claimed (and perhaps sent), never finished. */
  async function leaveInFlight(
    purchaseOrderNumber: string,
    status: 'received' | 'forwarded',
    buyerRequest: object | null = null,
  ) {
    await crashed.store.query(
      `INSERT INTO orders (user_id, username, purchase_order_number, member_id, status, request_id, forwarded_request, created_at, updated_at, buyer_request)
       SELECT id, username, $1, 'M100', $2, 'crashed-request', $3, $4, $4, $5 FROM users WHERE username = 'demo'`,
      [
        purchaseOrderNumber,
        status,
        JSON.stringify({ service: 'place_order', purchase_order_number: purchaseOrderNumber }),
        new Date(nowMs).toISOString(),
        buyerRequest === null ? null : JSON.stringify(buyerRequest),
      ],
    );
  }
  const pastStaleness = () => {
    nowMs += TIMEOUT_MS + MARGIN_MS + 1;
  };

  it('places a stale received order once on retry: it was never sent', async () => {
    const number = nextPo();
    await leaveInFlight(number, 'received');
    pastStaleness();
    const retry = await post(order(number));
    expect(retry.status).toBe(200);
    expect(retry.body.status_code).toBe(2000);
    expect(sentFor(number)).toHaveLength(1);
    expect(await rowOf(number)).toMatchObject([{ status: 'confirmed', attempts: 2 }]);
    const again = await post(order(number));
    expect(again.body).toEqual(retry.body);
    expect(sentFor(number)).toHaveLength(1);
  });

  it('places exactly one order when several retries of a stale received order arrive together', async () => {
    const number = nextPo();
    await leaveInFlight(number, 'received');
    pastStaleness();
    // The seller takes a moment, so the other retries find the order taken over and in flight.
    crashed.seller.seller.faults.add({ service: 'place_order', fault: { kind: 'latency', ms: 100 } });
    const answers = await Promise.all(Array.from({ length: 6 }, () => post(order(number))));
    expect(answers.map((a) => a.status)).toEqual(Array(6).fill(200));
    expect(new Set(answers.map((a) => a.body.order_number)).size).toBe(1);
    expect(sentFor(number)).toHaveLength(1);
    expect(await rowOf(number)).toMatchObject([{ status: 'confirmed', attempts: 2 }]);
  });

  it('places a different order under the number of a stale received one (never sent); refuses it while the claim is fresh', async () => {
    const number = nextPo();
    await leaveInFlight(number, 'received', order(number));
    const corrected = order(number, [
      { id: 'line-1', mfr_code: 'WIX', part_number: '51515', location_id: 'L101', quantity_ordered: 5 },
    ]);
    const fresh = await post(corrected);
    expect(fresh.status).toBe(409);
    expect(fresh.body.errors?.[0].path).toBe('/items/0/quantity_ordered');
    pastStaleness();
    const placed = await post(corrected);
    expect(placed.status).toBe(200);
    expect(sentFor(number).map((e) => e.request)).toMatchObject([{ items: [{ quantity_ordered: 5 }] }]);
    // The number now names the corrected order: the one first claimed is the different one.
    expect((await post(order(number))).status).toBe(409);
  });

  it('marks a stale forwarded order unknown and never sends it again: the seller may have it', async () => {
    const number = nextPo();
    await leaveInFlight(number, 'forwarded');
    pastStaleness();
    const retry = await post(order(number));
    expect(retry.status).toBe(504);
    expect(retry.body.status_code).toBe(4408);
    expect(retry.body.message).toContain('will not be sent again');
    const [row] = await rowOf(number);
    expect(row).toMatchObject({ status: 'unknown', attempts: 1, answer: { http_status: 504 } });
    const again = await post(order(number));
    expect(again.status).toBe(504);
    expect(again.replayed).toBe('true');
    expect(again.body).toEqual(retry.body);
    expect(sentFor(number)).toHaveLength(0);
  });

  /**
   * Its own gateway over the same database: a counting store shows when a repeat is waiting
   * (it reads the row again by id only from its wait loop).
   */
  function waitingGateway(orderWaitMs: number) {
    const store = countingStore(crashed.store);
    const app = createGateway({
      store,
      directory: crashed.directory,
      sellerClient: crashed.sellerClient,
      clock: () => nowMs,
      logger: false,
      config: gatewayConfig({ orderWaitMs, orderStaleMarginMs: MARGIN_MS }),
    });
    return {
      rereads: () => store.statements.filter((sql) => /FROM orders WHERE id = \$1/.test(sql)).length,
      post: async (body: unknown) => {
        const response = await app.request(PATH, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${await crashed.token()}` },
          body: JSON.stringify(body),
        });
        return { status: response.status, body: (await response.json()) as Reply };
      },
    };
  }

  it('still treats a fresh order in flight as in flight: the repeat waits, then gets 409 / 3000', async () => {
    // The wait ends by the injected clock: the test moves it once the repeat is waiting.
    const ORDER_WAIT_MS = 300;
    const waiting = waitingGateway(ORDER_WAIT_MS);
    for (const status of ['received', 'forwarded'] as const) {
      const number = nextPo();
      await leaveInFlight(number, status);
      // The repeat's last look falls on the last millisecond before the staleness bound.
      nowMs += TIMEOUT_MS + MARGIN_MS - 1 - ORDER_WAIT_MS;
      const before = waiting.rereads();
      const repeat = waiting.post(order(number));
      await expect.poll(waiting.rereads, { interval: 5, timeout: 5_000 }).toBeGreaterThan(before);
      nowMs += ORDER_WAIT_MS;
      const refused = await repeat;
      expect(refused.status).toBe(409);
      expect(refused.body.status_code).toBe(3000);
      expect(sentFor(number)).toHaveLength(0);
      expect(await rowOf(number)).toMatchObject([{ status, attempts: 1, answer: null }]);
    }
  });

  it('answers a waiting repeat with the result its first attempt records meanwhile', async () => {
    // A long wait leaves room to answer.
    const waiting = waitingGateway(10_000);
    const number = nextPo();
    await leaveInFlight(number, 'forwarded');
    const repeat = waiting.post(order(number));
    await expect.poll(waiting.rereads, { interval: 5, timeout: 5_000 }).toBeGreaterThan(0);
    const answer = { http_status: 200, body: { order_number: 'FIRST-1', status_code: 2000 } };
    await crashed.store.query(`UPDATE orders SET status = 'confirmed', answer = $2 WHERE purchase_order_number = $1`, [
      number,
      JSON.stringify(answer),
    ]);
    const { status, body } = await repeat;
    expect(status).toBe(200);
    expect(body).toMatchObject({ order_number: 'FIRST-1', status_code: 2000 });
  });
});
