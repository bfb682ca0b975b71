import { describe, it, expect, afterAll } from 'vitest';
import { request as undiciRequest } from 'undici';
import { checkSellerReply, type ItemInquirySellerRequest, type PlaceOrderSellerRequest } from '../contracts/index';
import { createMockSeller, startMockSeller, FAULT_HEADER } from './index';
import { readDefaultScenario } from './default-scenario';
import { parseFaultHeader } from './faults';
import { MALFORMED_BODY } from './seller-endpoint';

const inquiry: ItemInquirySellerRequest = {
  service: 'item_inquiry',
  locations: [{ id: 'L101', member: 'M100', account: 'A-1001' }],
  items: [
    { id: 'a', mfr_code: 'WIX', part_number: '51515' },
    { id: 'b', mfr_code: 'GAT', part_number: 'K060882' },
  ],
};
const orderRequest: PlaceOrderSellerRequest = {
  service: 'place_order',
  purchase_order_number: 'PO-9',
  order_type: 1,
  items: [
    {
      id: 'o1',
      mfr_code: 'WIX',
      part_number: '51515',
      location_id: 'L101',
      quantity_ordered: 1,
      account_id: 'A-1001',
      member_id: 'M100',
    },
  ],
};

const post = async (seller: ReturnType<typeof createMockSeller>, body: object, fault?: string): Promise<Response> =>
  seller.app.request('/seller', {
    method: 'POST',
    body: JSON.stringify(body),
    headers: fault === undefined ? {} : { [FAULT_HEADER]: fault },
  });

// Replies are read loosely here: the faults make them break the contract on purpose.
const json = async (res: Response | Promise<Response>): Promise<any> => (await res).json();

describe('the x-mock-fault header', () => {
  it('parses a list of faults with parameters', () => {
    expect(parseFaultHeader('latency;ms=20, drop-id;id=b ,http-status;status=502')).toEqual([
      { kind: 'latency', ms: 20 },
      { kind: 'drop-id', id: 'b' },
      { kind: 'http-status', status: 502 },
    ]);
  });

  it('rejects an unknown kind with a 400 naming it, and journals the request', async () => {
    const seller = createMockSeller(readDefaultScenario());
    const res = await post(seller, inquiry, 'explode');
    expect(res.status).toBe(400);
    expect((await json(res)).message).toContain("'explode' is not a fault");
    expect(seller.journal.entries()[0]).toMatchObject({ http_status: 400, service: 'item_inquiry' });
  });

  it('ignores a fault the service cannot honour, journaling it as not applied', async () => {
    const seller = createMockSeller(readDefaultScenario());
    const res = await post(seller, orderRequest, 'extra-location;id=o1');
    expect(res.status).toBe(200);
    const reply = await json(res);
    expect(checkSellerReply('place-order', orderRequest, reply).ok).toBe(true);
    expect(seller.journal.entries()[0]).toMatchObject({
      http_status: 200,
      service: 'place_order',
      faults: [],
      fault_source: null,
      faults_not_applied: ['extra-location;id=o1'],
    });
    expect(seller.orders).toHaveLength(1);
  });

  it('with one header on every operation, breaks only those a fault targets', async () => {
    // What a vendor-kit run with a header fault does: the same header on each exchange.
    const seller = createMockSeller(readDefaultScenario());
    const header = 'wrong-original-part, latency;ms=1';
    const item = await json(post(seller, inquiry, header));
    expect(checkSellerReply('item-inquiry', inquiry, item).violations.map((v) => v.rule)).toContain(
      'alternate.original-part',
    );
    const order = await post(seller, orderRequest, header);
    expect(order.status).toBe(200);
    expect(checkSellerReply('place-order', orderRequest, await json(order)).ok).toBe(true);
    const invoice = await post(
      seller,
      {
        service: 'invoice',
        member: 'M100',
        account: 'A-1001',
        from_invoice_date: '2026-10-01',
        to_invoice_date: '2026-10-31',
      },
      header,
    );
    expect(invoice.status).toBe(200);
    expect((await json(invoice)).status).toBe('success');
    const [i, o, v] = seller.journal.entries();
    expect(i).toMatchObject({
      faults: ['wrong-original-part', 'latency;ms=1'],
      fault_source: 'header',
      faults_not_applied: [],
    });
    expect(o).toMatchObject({
      faults: ['latency;ms=1'],
      fault_source: 'header',
      faults_not_applied: ['wrong-original-part'],
    });
    expect(v).toMatchObject({ faults: ['latency;ms=1'], faults_not_applied: ['wrong-original-part'] });
  });

  it('applies only to the request that carries it', async () => {
    const seller = createMockSeller(readDefaultScenario());
    expect((await post(seller, inquiry, 'http-status;status=502')).status).toBe(502);
    expect((await post(seller, inquiry)).status).toBe(200);
  });
});

describe('faults', () => {
  it('delays the reply by a fixed latency', async () => {
    const seller = createMockSeller(readDefaultScenario());
    const started = performance.now();
    const res = await post(seller, inquiry, 'latency;ms=120');
    expect(res.status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(115);
    expect(seller.journal.entries()[0].faults).toEqual(['latency;ms=120']);
  });

  it('delays by a random latency within the bounds', async () => {
    const seller = createMockSeller(readDefaultScenario());
    const started = performance.now();
    await post(seller, inquiry, 'latency;min_ms=50;max_ms=80');
    expect(performance.now() - started).toBeGreaterThanOrEqual(45);
  });

  it('answers an HTTP error status', async () => {
    const seller = createMockSeller(readDefaultScenario());
    const res = await post(seller, inquiry, 'http-status');
    expect(res.status).toBe(503);
  });

  it('answers a seller-level status_code in each service envelope', async () => {
    const seller = createMockSeller(readDefaultScenario());
    expect(await (await post(seller, inquiry, 'status-code;code=5503')).json()).toEqual({
      status_code: 5503,
      items: [],
    });
    expect(await (await post(seller, orderRequest, 'status-code;code=3220')).json()).toMatchObject({
      status_code: 3220,
      items: [],
    });
    const invoice = await (
      await post(seller, { service: 'invoice', member: 'M100', account: 'A-1001' }, 'status-code;code=5500')
    ).json();
    expect(invoice).toEqual({ status: 'error', error_description: '5500 System error', invoices: [] });
    // Nothing was ordered: the seller refused before acting.
    expect(seller.orders).toHaveLength(0);
  });

  it('sends a malformed JSON body', async () => {
    const seller = createMockSeller(readDefaultScenario());
    const res = await post(seller, inquiry, 'malformed-json');
    const text = await res.text();
    expect(text).toBe(MALFORMED_BODY);
    expect(() => JSON.parse(text)).toThrow();
  });

  it('sends a truncated body (in-process: the first half)', async () => {
    const seller = createMockSeller(readDefaultScenario());
    const honest = await (await post(seller, inquiry)).text();
    const text = await (await post(seller, inquiry, 'truncated')).text();
    expect(text).toBe(honest.slice(0, Math.floor(honest.length / 2)));
  });

  it('resets the connection (in-process: the body fails to read)', async () => {
    const seller = createMockSeller(readDefaultScenario());
    const res = await post(seller, inquiry, 'reset');
    await expect(res.text()).rejects.toThrow();
    expect(seller.journal.entries()[0]).toMatchObject({ http_status: null, faults: ['reset'] });
  });

  it('never answers a hang until released', async () => {
    const seller = createMockSeller(readDefaultScenario());
    let settled = false;
    const pending = post(seller, inquiry, 'hang').finally(() => (settled = true));
    await expect.poll(() => seller.hangingCount, { timeout: 10_000 }).toBe(1);
    expect(settled).toBe(false);
    seller.releaseHanging();
    await expect((await pending).text()).rejects.toThrow();
    expect(seller.hangingCount).toBe(0);
  });

  it('applies a control-API fault to the next N requests of its service only', async () => {
    const seller = createMockSeller(readDefaultScenario());
    const res = await seller.app.request('/__admin/faults', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ service: 'item_inquiry', count: 2, fault: { kind: 'http-status', status: 500 } }),
    });
    expect(res.status).toBe(201);
    expect((await post(seller, orderRequest)).status).toBe(200);
    expect((await post(seller, inquiry)).status).toBe(500);
    expect((await post(seller, inquiry)).status).toBe(500);
    expect((await post(seller, inquiry)).status).toBe(200);
    expect(seller.journal.entries().map((e) => e.fault_source)).toEqual([null, 'rule', 'rule', null]);
  });

  it('applies a fault until cleared, optionally only for one part number', async () => {
    const seller = createMockSeller(readDefaultScenario());
    await seller.app.request('/__admin/faults', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ service: '*', part_number: 'K060882', fault: { kind: 'drop-id' } }),
    });
    for (let i = 0; i < 3; i++) {
      const reply = await json(post(seller, inquiry));
      expect(reply.items.some((e: { id: string }) => e.id === 'b')).toBe(false);
      expect(reply.items.some((e: { id: string }) => e.id === 'a')).toBe(true);
    }
    const other = { ...inquiry, items: [inquiry.items[0]] };
    expect((await json(post(seller, other))).items[0].id).toBe('a');
    expect((await seller.app.request('/__admin/faults', { method: 'DELETE' })).status).toBe(204);
    const reply = await json(post(seller, inquiry));
    expect(checkSellerReply('item-inquiry', inquiry, reply).ok).toBe(true);
  });

  it('removes one fault rule by id', async () => {
    const seller = createMockSeller(readDefaultScenario());
    const rule = await json(
      seller.app.request('/__admin/faults', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ service: 'invoice', fault: { kind: 'malformed-json' } }),
      }),
    );
    expect((await json(seller.app.request('/__admin/faults'))).faults).toHaveLength(1);
    expect((await seller.app.request(`/__admin/faults/${rule.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await seller.app.request(`/__admin/faults/${rule.id}`, { method: 'DELETE' })).status).toBe(404);
    expect(seller.faults.list()).toHaveLength(0);
  });

  it('refuses a fault rule it cannot honour, naming the field', async () => {
    const seller = createMockSeller(readDefaultScenario());
    const res = await seller.app.request('/__admin/faults', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ service: 'statement', fault: { kind: 'wrong-original-part' } }),
    });
    expect(res.status).toBe(400);
    expect((await json(res)).errors).toEqual([expect.objectContaining({ path: '/fault/kind' })]);
    const bad = await seller.app.request('/__admin/faults', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ service: 'item_inquiry', fault: { kind: 'latency' } }),
    });
    expect((await json(bad)).errors[0].message).toContain('latency needs ms');
  });
});

describe('fault rules posted as a list', () => {
  const postRules = (seller: ReturnType<typeof createMockSeller>, body: unknown) =>
    seller.app.request('/__admin/faults', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('adds every rule of a list, answering the list of rules added', async () => {
    const seller = createMockSeller(readDefaultScenario());
    const res = await postRules(seller, [
      { service: 'item_inquiry', count: 1, fault: { kind: 'http-status', status: 500 } },
      { service: 'place_order', fault: { kind: 'status-code', code: 5503 } },
    ]);
    expect(res.status).toBe(201);
    const added = (await json(res)) as { id: string; service: string }[];
    expect(added.map((r) => r.service)).toEqual(['item_inquiry', 'place_order']);
    expect(seller.faults.list().map((r) => r.id)).toEqual(added.map((r) => r.id));
    expect((await post(seller, inquiry)).status).toBe(500);
    expect((await json(post(seller, orderRequest))).status_code).toBe(5503);
    expect(await json(postRules(seller, []))).toEqual([]);
  });

  it('refuses the whole list when one rule is bad, naming its index and field, and adds none', async () => {
    const seller = createMockSeller(readDefaultScenario());
    const res = await postRules(seller, [
      { service: 'item_inquiry', fault: { kind: 'drop-id' } },
      { service: 'statement', fault: { kind: 'wrong-original-part' } },
      { service: 'invoice', fault: { kind: 'latency' } },
      { service: 'invoice', fault: { kind: 'reset' }, cuont: 1 },
    ]);
    expect(res.status).toBe(400);
    const body = (await json(res)) as { message: string; errors: { path: string; message: string }[] };
    expect(body.message).toContain('rules 1, 2, 3 (from 0) are not fault rules; none of the 4 was added');
    expect(body.errors.map((e) => e.path)).toEqual(['/1/fault/kind', '/2/fault', '/3/cuont']);
    expect(body.errors[1].message).toContain('latency needs ms');
    expect(seller.faults.list()).toEqual([]);
    expect((await post(seller, inquiry)).status).toBe(200);
  });
});

describe('faults over a real connection', () => {
  const started = startMockSeller({ scenario: readDefaultScenario(), port: 0 });
  afterAll(async () => (await started).close());

  const send = async (fault: string, timeoutMs = 5000) => {
    const { url } = await started;
    return undiciRequest(`${url}/seller`, {
      method: 'POST',
      body: JSON.stringify(inquiry),
      headers: { [FAULT_HEADER]: fault, 'content-type': 'application/json' },
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
  };

  it('listens on the port it reports', async () => {
    const { url, port } = await started;
    expect(port).toBeGreaterThan(0);
    expect(url).toBe(`http://127.0.0.1:${port}`);
    const res = await undiciRequest(`${url}/health`);
    expect(await res.body.json()).toEqual({ status: 'ok', scenario: 'default' });
  });

  it('resets the connection', async () => {
    await expect(send('reset')).rejects.toThrow(/other side closed|ECONNRESET|socket/i);
  });

  it('promises the whole body and sends half of it', async () => {
    const res = await send('truncated');
    expect(Number(res.headers['content-length'])).toBeGreaterThan(0);
    await expect(res.body.text()).rejects.toThrow();
  });

  it('hangs until the client gives up', async () => {
    const { seller } = await started;
    const begun = performance.now();
    await expect(send('hang', 300)).rejects.toThrow(/timeout/i);
    expect(performance.now() - begun).toBeGreaterThanOrEqual(290);
    // The client dropped the connection, so the held request is let go.
    await expect.poll(() => seller.hangingCount, { timeout: 10_000 }).toBe(0);
  });

  it('lets hanging requests go on close()', async () => {
    const running = await startMockSeller({ scenario: readDefaultScenario(), port: 0 });
    const pending = undiciRequest(`${running.url}/seller`, {
      method: 'POST',
      body: JSON.stringify(inquiry),
      headers: { [FAULT_HEADER]: 'hang' },
    });
    const outcome = pending.then(
      () => 'answered',
      () => 'dropped',
    );
    // Waits for the request to arrive (a fixed sleep lost the race on a busy machine).
    await expect.poll(() => running.seller.hangingCount, { timeout: 10_000 }).toBe(1);
    await running.close();
    expect(await outcome).toBe('dropped');
  });
});
