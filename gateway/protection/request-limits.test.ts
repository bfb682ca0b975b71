import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../testing/test-gateway';
import { V3_1, V3_2 } from '../app';

// Limits on every buyer endpoint: a body over the limit is refused (413) before it is read,
// in the gateway's error body; too many items or order lines is a 4422 naming the limit;
// and nothing reaches the seller or the orders table.

interface Reply {
  status_code: number;
  message: string;
  errors?: { path: string; message: string; rule?: string }[];
}

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway({
    config: { protection: { maxBodyBytes: 64 * 1024, maxInquiryItems: 20, maxOrderLines: 10 } },
  });
});
afterAll(() => gw.close());

const item = (i: number) => ({ id: `item-${i}`, mfr_code: 'WIX', part_number: '51515' });
const line = (i: number) => ({ ...item(i), location_id: 'L101', quantity_ordered: 1 });
const big = (bytes: number) => JSON.stringify({ items: [{ ...item(1), padding: 'x'.repeat(bytes) }] });

async function journalSize() {
  return ((await (await fetch(`${gw.seller.url}/__admin/journal`)).json()) as { count: number }).count;
}

describe('request body size', () => {
  const endpoints = [
    ['POST', `${V3_2}/item_inquiry`],
    ['POST', `${V3_2}/place_order`],
    ['POST', `${V3_2}/invoice`],
    ['POST', `${V3_2}/statement`],
    ['POST', `${V3_1}/item_inquiry`],
    ['POST', `${V3_1}/place_order`],
    ['POST', '/auth/get_catalog_token'],
    ['POST', '/catalog/vehicles'],
    ['POST', '/catalog/products'],
    ['POST', '/catalog-session/api/cart/items'],
  ] as const;

  it.each(endpoints)('%s %s: a body over the limit is 413 with the gateway error body', async (method, path) => {
    const before = await journalSize();
    const response = await gw.app.request(path, {
      method,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${await gw.token()}` },
      body: big(70 * 1024),
    });
    expect(response.status).toBe(413);
    const body = (await response.json()) as Reply;
    expect(body.status_code).toBe(4422);
    expect(body.message).toContain('larger than 65536 bytes');
    expect(await journalSize()).toBe(before);
  });

  it('refuses before authentication: no token needed to be told the body is too large', async () => {
    const response = await gw.app.request(`${V3_2}/item_inquiry`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: big(70 * 1024),
    });
    expect(response.status).toBe(413);
  });

  it('counts a body without Content-Length (chunked) as it streams', async () => {
    const payload = new TextEncoder().encode(big(70 * 1024));
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < payload.length; i += 8192) controller.enqueue(payload.subarray(i, i + 8192));
        controller.close();
      },
    });
    const response = await gw.app.request(`${V3_2}/item_inquiry`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${await gw.token()}`,
        'transfer-encoding': 'chunked',
      },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
  });

  it('a body just under the limit is read as usual', async () => {
    const response = await gw.post(`${V3_2}/item_inquiry`, {
      items: [item(1)],
      locations: [{ id: 'L101', member: 'M100', account: 'A-1001' }],
    });
    expect(response.status).toBe(200);
  });
});

describe('items per inquiry and lines per order', () => {
  it('an inquiry over the item limit is 4422 naming the limit; nothing is forwarded', async () => {
    const before = await journalSize();
    const response = await gw.post(`${V3_2}/item_inquiry`, { items: Array.from({ length: 21 }, (_, i) => item(i)) });
    expect(response.status).toBe(422);
    const body = (await response.json()) as Reply;
    expect(body.status_code).toBe(4422);
    expect(body.message).toContain('21 items per item inquiry, the limit is 20');
    expect(body.errors?.[0]).toMatchObject({ path: '/items', rule: 'limit.items-per-inquiry' });
    expect(await journalSize()).toBe(before);
  });

  it('an inquiry at the limit is answered', async () => {
    const response = await gw.post(`${V3_1}/item_inquiry`, { items: Array.from({ length: 20 }, (_, i) => item(i)) });
    expect(response.status).toBe(200);
  });

  it('an order over the line limit is 4422 naming the limit; nothing forwarded or recorded', async () => {
    const before = await journalSize();
    const response = await gw.post(`${V3_2}/place_order`, {
      purchase_order_number: 'PO-LIMIT-1',
      order_type: 1,
      items: Array.from({ length: 11 }, (_, i) => line(i)),
    });
    expect(response.status).toBe(422);
    const body = (await response.json()) as Reply;
    expect(body.message).toContain('11 lines per order, the limit is 10');
    expect(body.errors?.[0]?.rule).toBe('limit.lines-per-order');
    expect(await journalSize()).toBe(before);
    const { rows } = await gw.store.query(`SELECT 1 FROM orders WHERE purchase_order_number = 'PO-LIMIT-1'`);
    expect(rows).toHaveLength(0);
  });
});

describe('JSON nesting', () => {
  // The schemas are closed and shallow: a deeply nested value is refused as a wrong type at
  // its path, without recursing into it. 20,000 levels fit in the body limit.
  it('a deeply nested value is a 4422 at its path, never a crash', async () => {
    const depth = 20_000;
    const nested = `${'['.repeat(depth)}${']'.repeat(depth)}`;
    const body = `{"items":[{"id":"1","mfr_code":"WIX","part_number":${nested}}]}`;
    const response = await gw.post(`${V3_2}/item_inquiry`, body);
    expect(response.status).toBe(422);
    const reply = (await response.json()) as Reply;
    expect(reply.status_code).toBe(4422);
    expect(reply.errors?.some((e) => e.path === '/items/0/part_number')).toBe(true);
  });

  it('deep nesting in an unknown field is refused by name', async () => {
    const depth = 10_000;
    const body = `{"items":[{"id":"1","mfr_code":"WIX","part_number":"51515"}],"extra":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`;
    const response = await gw.post(`${V3_2}/item_inquiry`, body);
    expect(response.status).toBe(422);
    expect(JSON.stringify(await response.json())).toContain('extra');
  });
});
