import { describe, it, expect } from 'vitest';
import { checkSellerReply, type ItemInquirySellerRequest } from '../contracts/index';
import { createMockSeller, type MockSeller } from './index';
import { readDefaultScenario } from './default-scenario';
import { ScenarioError } from './errors';
import { MOCK_SELLER_STATE_HANDLERS } from './provider-states';

const json = async (res: Response | Promise<Response>): Promise<any> => (await res).json();
const call = async (seller: MockSeller, method: string, path: string, body?: unknown): Promise<Response> =>
  seller.app.request(path, {
    method,
    body: body === undefined ? undefined : JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  });

const inquiry = (mfr_code: string, part_number: string, locationIds = ['L101']): ItemInquirySellerRequest => ({
  service: 'item_inquiry',
  locations: locationIds.map((id) => ({ id, member: 'M100', account: 'A-1001' })),
  items: [{ id: 'q', mfr_code, part_number }],
});

describe('invalid forwarded requests', () => {
  it('answers 400 with every error and journals the request', async () => {
    const seller = createMockSeller(readDefaultScenario());
    const res = await call(seller, 'POST', '/seller', {
      service: 'item_inquiry',
      locations: [],
      items: [{ id: '', mfr_code: 'WIX' }],
    });
    expect(res.status).toBe(400);
    const body = await json(res);
    expect(body.status_code).toBe(4422);
    expect(body.errors.map((e: { path: string }) => e.path).sort()).toEqual([
      '/items/0/id',
      '/items/0/part_number',
      '/locations',
    ]);
    const [entry] = seller.journal.entries();
    expect(entry).toMatchObject({ service: 'item_inquiry', http_status: 400, request: { service: 'item_inquiry' } });
    expect(entry.notes).toHaveLength(3);
  });

  it('names the services when the service is unknown, and rejects a body that is not JSON', async () => {
    const seller = createMockSeller(readDefaultScenario());
    expect((await json(call(seller, 'POST', '/seller', { service: 'teleport' }))).message).toContain(
      'item_inquiry, place_order, invoice, statement',
    );
    const res = await seller.app.request('/seller', { method: 'POST', body: '{"service":' });
    expect(res.status).toBe(400);
    expect(seller.journal.entries().map((e) => e.http_status)).toEqual([400, 400]);
  });

  it('rejects duplicate item ids, whose replies would be ambiguous', async () => {
    const seller = createMockSeller(readDefaultScenario());
    const request = inquiry('WIX', '51515');
    request.items.push({ ...request.items[0] });
    const res = await call(seller, 'POST', '/seller', request);
    expect(res.status).toBe(400);
    expect((await json(res)).errors[0].path).toBe('/items/1/id');
  });
});

describe('the control API takes JSON from its own origin only', () => {
  const fault = JSON.stringify({ service: '*', fault: { kind: 'http-status', status: 500 } });

  it('refuses a body that is not application/json with 415, naming the header and the rule', async () => {
    const seller = createMockSeller(readDefaultScenario());
    const form = await seller.app.request('/__admin/faults', {
      method: 'POST',
      body: fault,
      headers: { 'content-type': 'text/plain' },
    });
    expect(form.status).toBe(415);
    expect(await json(form)).toEqual({
      message: "content-type must be application/json, not 'text/plain'",
      errors: [{ keyword: 'request.content-type', path: 'header:content-type', message: 'must be application/json' }],
    });
    // An empty form post to reset is refused too: its declared type is not JSON.
    expect(
      (await seller.app.request('/__admin/reset', { method: 'POST', headers: { 'content-type': 'text/plain' } }))
        .status,
    ).toBe(415);
    expect(
      (await seller.app.request('/__admin/faults', { method: 'POST', body: new TextEncoder().encode(fault) })).status,
    ).toBe(415);
    expect(seller.faults.list()).toEqual([]);
  });

  it('refuses a state change a browser sent from another site with 403, and lets reads, its own origin and tools through', async () => {
    const seller = createMockSeller(readDefaultScenario());
    for (const headers of [{ 'sec-fetch-site': 'cross-site' }, { origin: 'http://127.0.0.1:9' }] as Record<
      string,
      string
    >[]) {
      for (const [method, path] of [
        ['POST', '/__admin/faults'],
        ['POST', '/__admin/reset'],
        ['DELETE', '/__admin/journal'],
        ['PUT', '/__admin/scenario'],
      ]) {
        const res = await seller.app.request(path, {
          method,
          body: method === 'DELETE' ? undefined : fault,
          headers: { 'content-type': 'application/json', ...headers },
        });
        expect(res.status, `${method} ${path}`).toBe(403);
        expect((await json(res)).errors).toEqual([expect.objectContaining({ keyword: 'request.cross-site' })]);
      }
    }
    expect(seller.faults.list()).toEqual([]);
    expect((await seller.app.request('/__admin/faults', { headers: { 'sec-fetch-site': 'cross-site' } })).status).toBe(
      200,
    );
    const own = { 'content-type': 'application/json', origin: 'http://localhost', 'sec-fetch-site': 'same-origin' };
    expect((await seller.app.request('/__admin/faults', { method: 'POST', body: fault, headers: own })).status).toBe(
      201,
    );
    expect((await call(seller, 'POST', '/__admin/faults', JSON.parse(fault))).status).toBe(201);
    expect((await seller.app.request('/__admin/reset', { method: 'POST' })).status).toBe(200);
  });

  it('refuses an empty body where one is required, naming the body', async () => {
    const seller = createMockSeller(readDefaultScenario());
    const res = await seller.app.request('/__admin/faults', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect((await json(res)).message).toBe('the body is empty; this endpoint requires a JSON body');
  });
});

describe('the journal', () => {
  it('keeps each request, the reply, timing and faults, and can be filtered and cleared', async () => {
    const seller = createMockSeller(readDefaultScenario());
    await call(seller, 'POST', '/seller', inquiry('WIX', '51515'));
    await call(seller, 'POST', '/seller', {
      service: 'invoice',
      member: 'M100',
      account: 'A-1001',
      invoice_number: 'INV-100401',
    });
    const all = await json(call(seller, 'GET', '/__admin/journal'));
    expect(all.count).toBe(2);
    expect(all.entries[0]).toMatchObject({
      seq: 1,
      service: 'item_inquiry',
      http_status: 200,
      faults: [],
      fault_source: null,
    });
    expect(all.entries[0].reply.items[0].part_number).toBe('51515');
    expect(all.entries[0].elapsed_ms).toBeGreaterThanOrEqual(0);
    expect(new Date(all.entries[0].at).getTime()).not.toBeNaN();
    expect(
      (await json(call(seller, 'GET', '/__admin/journal?service=invoice'))).entries.map((e: { seq: number }) => e.seq),
    ).toEqual([2]);
    expect(
      (await json(call(seller, 'GET', '/__admin/journal?limit=1'))).entries.map((e: { seq: number }) => e.seq),
    ).toEqual([2]);
    expect((await call(seller, 'DELETE', '/__admin/journal')).status).toBe(204);
    expect(seller.journal.size).toBe(0);
  });

  it('drops the oldest entries beyond its limit', async () => {
    const seller = createMockSeller(readDefaultScenario(), { journalLimit: 3 });
    for (let i = 0; i < 5; i++) await call(seller, 'POST', '/seller', inquiry('WIX', '51515'));
    expect(seller.journal.entries().map((e) => e.seq)).toEqual([3, 4, 5]);
  });
});

describe('scenarios', () => {
  it('refuses a scenario that breaks the schema or its own references, naming each problem', () => {
    const broken = readDefaultScenario();
    broken.parts[0].stock[0].location_id = 'L-NOWHERE';
    (broken.parts[1] as unknown as Record<string, unknown>).part_numbr = 'typo';
    expect(() => createMockSeller(broken)).toThrow(ScenarioError);
    const dangling = readDefaultScenario();
    dangling.parts[0].stock[0].location_id = 'L-NOWHERE';
    let caught: unknown;
    try {
      createMockSeller(dangling);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ScenarioError);
    expect((caught as ScenarioError).issues).toEqual([
      expect.objectContaining({ path: '/parts/0/stock/0/location_id', message: "unknown location 'L-NOWHERE'" }),
    ]);
  });

  it('replaces the scenario through the control API and resets to it', async () => {
    const seller = createMockSeller(readDefaultScenario());
    const small = readDefaultScenario();
    small.name = 'small';
    small.parts = small.parts.filter((p) => p.mfr_code === 'NGK').map((p) => ({ ...p, related: undefined }));
    const res = await call(seller, 'PUT', '/__admin/scenario', small);
    expect(await json(res)).toMatchObject({ loaded: 'small', parts: 3 });
    const reply = await json(call(seller, 'POST', '/seller', inquiry('WIX', '51515')));
    expect(reply.items[0].status_code).toBe(0);
    expect((await json(call(seller, 'GET', '/__admin/scenario'))).name).toBe('small');
    const bad = await call(seller, 'PUT', '/__admin/scenario', { name: 'x' });
    expect(bad.status).toBe(400);
    expect((await json(bad)).errors.map((e: { path: string }) => e.path)).toEqual(
      expect.arrayContaining(['/members', '/locations', '/parts', '/accounts']),
    );
    expect(seller.data.scenario.name).toBe('small');
  });
});

describe('provider states', () => {
  const setUp = (seller: MockSeller, state: string, params: Record<string, unknown>) =>
    call(seller, 'POST', '/__admin/provider-state', { state, params, action: 'setup' });
  const ask = async (seller: MockSeller, request: ItemInquirySellerRequest) => {
    const reply = await json(call(seller, 'POST', '/seller', request));
    expect(checkSellerReply('item-inquiry', request, reply).ok).toBe(true);
    return reply;
  };

  it('lists the catalogue of states', async () => {
    const { states } = await json(call(createMockSeller(readDefaultScenario()), 'GET', '/__admin/provider-states'));
    expect(states.map((s: { state: string }) => s.state)).toEqual(Object.keys(MOCK_SELLER_STATE_HANDLERS));
  });

  it('"part exists" stocks a new part at the named locations; teardown takes it away', async () => {
    const seller = createMockSeller(readDefaultScenario());
    const res = await setUp(seller, 'part exists', {
      mfr_code: 'PCT',
      part_number: 'P-1',
      location_ids: ['L101', 'L150'],
      quantity_available: 7,
    });
    expect(await json(res)).toMatchObject({ mfr_code: 'PCT', part_number: 'P-1', location_ids: ['L101', 'L150'] });
    const reply = await ask(seller, inquiry('PCT', 'P-1', ['L101', 'L150']));
    expect(reply.items[0]).toMatchObject({
      status_code: 1,
      locations: [
        { id: 'L101', quantity_available: 7 },
        { id: 'L150', quantity_available: 7 },
      ],
    });
    await call(seller, 'POST', '/__admin/provider-state', { state: 'part exists', action: 'teardown' });
    expect((await ask(seller, inquiry('PCT', 'P-1'))).items[0].status_code).toBe(0);
  });

  it.each([
    ['part has alternate', 2],
    ['part has superseded', 3],
    ['part has equivalent', 4],
  ])('"%s" answers the related part with status %i', async (state, status) => {
    const seller = createMockSeller(readDefaultScenario());
    const params = await json(
      setUp(seller, state, {
        mfr_code: 'PCT',
        part_number: 'P-2',
        related_mfr_code: 'PCU',
        related_part_number: 'P-9',
        location_ids: ['L101'],
      }),
    );
    expect(params).toMatchObject({ related_mfr_code: 'PCU', related_part_number: 'P-9' });
    const reply = await ask(seller, inquiry('PCT', 'P-2'));
    expect(reply.items[1]).toMatchObject({
      id: 'q',
      mfr_code: 'PCU',
      part_number: 'P-9',
      status_code: status,
      original_part: 'P-2',
      original_mfr: 'PCT',
    });
  });

  it('"part exists" honours location_id and second_location_id as the pact passes them, and leaves the part without related parts', async () => {
    const seller = createMockSeller(readDefaultScenario());
    const params = await json(
      setUp(seller, 'part exists', {
        member: 'M200',
        mfr_code: 'PCT',
        part_number: 'P-3',
        location_id: 'L201',
        second_location_id: 'L250',
      }),
    );
    expect(params).toMatchObject({ location_id: 'L201', second_location_id: 'L250', location_ids: ['L201', 'L250'] });
    const everywhere = ['L101', 'L102', 'L150', 'L201', 'L250'];
    const reply = await ask(seller, inquiry('PCT', 'P-3', everywhere));
    expect(reply.items[0].locations.map((l: { id: string }) => l.id)).toEqual(['L201', 'L250']);
    // WIX 51515 has an alternate and an equivalent in the default scenario; the state drops them.
    expect((await ask(seller, inquiry('WIX', '51515'))).items).toHaveLength(2 + 1);
    await setUp(seller, 'part exists', { mfr_code: 'WIX', part_number: '51515', location_id: 'L101' });
    expect(
      (await ask(seller, inquiry('WIX', '51515'))).items.map((e: { status_code: number }) => e.status_code),
    ).toEqual([1]);
    expect(
      (await json(setUp(seller, 'part exists', { mfr_code: 'WIX', part_number: '51515', second_location_id: 'L150' })))
        .errors,
    ).toEqual([expect.objectContaining({ path: '/params/location_id' })]);
  });

  it.each([
    ['part has alternate', 'alternate', 2],
    ['part has superseded', 'superseded', 3],
    ['part has equivalent', 'equivalent', 4],
  ])('"%s" makes the named part the only related part, stocked at location_id', async (state, kind, status) => {
    // ACD PF48 has two equivalents in the default scenario (WIX 57060, MOT FL400S) and no stock at L201.
    const seller = createMockSeller(readDefaultScenario());
    const params = await json(
      setUp(seller, state, {
        member: 'M200',
        mfr_code: 'ACD',
        part_number: 'PF48',
        related_mfr_code: 'WIX',
        related_part_number: '57060',
        location_id: 'L201',
      }),
    );
    expect(params).toMatchObject({ location_id: 'L201', location_ids: ['L201'], kind });
    const reply = await ask(seller, inquiry('ACD', 'PF48', ['L201']));
    expect(
      reply.items.map((e: { part_number: string; status_code: number }) => [e.part_number, e.status_code]),
    ).toEqual([
      ['PF48', 1],
      ['57060', status],
    ]);
    for (const entry of reply.items)
      expect(entry.locations).toEqual([
        expect.objectContaining({ id: 'L201', quantity_available: expect.any(Number) }),
      ]);
    expect(
      reply.items.every((e: { locations: { quantity_available: number }[] }) => e.locations[0].quantity_available > 0),
    ).toBe(true);
  });

  it('"part is unknown" removes a part and the relations to it', async () => {
    const seller = createMockSeller(readDefaultScenario());
    await setUp(seller, 'part is unknown', { mfr_code: 'WIX', part_number: '51515XP' });
    expect((await ask(seller, inquiry('WIX', '51515XP'))).items[0].status_code).toBe(0);
    expect(
      (await ask(seller, inquiry('WIX', '51515'))).items.map((e: { part_number: string }) => e.part_number),
    ).toEqual(['51515', 'FL400S']);
  });

  it.each([
    ['order can be received', 1],
    ['order will be backordered', 2],
    ['order will fail', 0],
  ])('"%s" gives the ordered item status %i', async (state, status) => {
    const seller = createMockSeller(readDefaultScenario());
    await setUp(seller, state, { mfr_code: 'GAT', part_number: 'K060882', location_id: 'L101', quantity: 50 });
    const order = {
      service: 'place_order',
      purchase_order_number: 'PO',
      order_type: 1,
      items: [
        {
          id: 'i',
          mfr_code: 'GAT',
          part_number: 'K060882',
          location_id: 'L101',
          quantity_ordered: 50,
          account_id: 'A-1001',
          member_id: 'M100',
        },
      ],
    };
    const reply = await json(call(seller, 'POST', '/seller', order));
    expect(reply.items[0].status_code).toBe(status);
  });

  it('"account has invoices" and "account has statements" create matching documents for a new account', async () => {
    const seller = createMockSeller(readDefaultScenario());
    await setUp(seller, 'account has invoices', {
      member: 'M200',
      account: 'A-PACT',
      invoice_number: 'INV-9',
      po_number: 'PO-9',
      from_invoice_date: '2026-05-01',
    });
    const inv = await json(
      call(seller, 'POST', '/seller', {
        service: 'invoice',
        member: 'M200',
        account: 'A-PACT',
        po_number: 'PO-9',
        from_invoice_date: '2026-05-01',
        to_invoice_date: '2026-05-31',
      }),
    );
    expect(inv.invoices.map((i: { invoice_number: string }) => i.invoice_number)).toEqual(['INV-9']);
    await setUp(seller, 'account has statements', {
      member: 'M200',
      account: 'A-PACT',
      from_statement_date: '2026-05-01',
      to_statement_date: '2026-05-31',
    });
    const st = await json(
      call(seller, 'POST', '/seller', {
        service: 'statement',
        member: 'M200',
        account: 'A-PACT',
        from_statement_date: '2026-05-01',
        to_statement_date: '2026-05-31',
      }),
    );
    expect(st.statements.map((s: { statement_date: string }) => s.statement_date)).toEqual(['2026-05-31']);
  });

  it('"two parts exist and a third is unknown" answers with every value it used, in one flat map', async () => {
    const seller = createMockSeller(readDefaultScenario());
    const params = await json(
      setUp(seller, 'two parts exist and a third is unknown', {
        location_id: 'L101',
        mfr_code: 'WIX',
        part_number: '51515',
        second_mfr_code: 'PCT',
        second_part_number: 'P-7',
        unknown_mfr_code: 'GAT',
        unknown_part_number: 'K060882',
      }),
    );
    expect(params).toMatchObject({
      mfr_code: 'WIX',
      part_number: '51515',
      second_mfr_code: 'PCT',
      second_part_number: 'P-7',
      unknown_mfr_code: 'GAT',
      unknown_part_number: 'K060882',
      location_id: 'L101',
    });
    const request: ItemInquirySellerRequest = {
      service: 'item_inquiry',
      locations: [{ id: 'L101', member: 'M100', account: 'A-1001' }],
      items: [
        { id: '1', mfr_code: 'WIX', part_number: '51515' },
        { id: '2', mfr_code: 'PCT', part_number: 'P-7' },
        { id: '3', mfr_code: 'GAT', part_number: 'K060882' },
      ],
    };
    const reply = await ask(seller, request);
    // WIX 51515 loses its related parts: exactly one entry per id.
    expect(reply.items.map((e: { id: string; status_code: number }) => [e.id, e.status_code])).toEqual([
      ['1', 1],
      ['2', 1],
      ['3', 0],
    ]);
  });

  it('"part has route times" gives a location without routes a route', async () => {
    const seller = createMockSeller(readDefaultScenario());
    await setUp(seller, 'part exists', {
      member: 'M100',
      mfr_code: 'PCT',
      part_number: 'P-5',
      location_id: 'L-NEW',
      second_location_id: 'L101',
    });
    expect((await ask(seller, inquiry('PCT', 'P-5', ['L-NEW']))).items[0].locations[0].route_times).toBeUndefined();
    await setUp(seller, 'part has route times', {
      member: 'M100',
      mfr_code: 'PCT',
      part_number: 'P-5',
      location_id: 'L-NEW',
    });
    expect((await ask(seller, inquiry('PCT', 'P-5', ['L-NEW']))).items[0].locations[0].route_times).toEqual([
      expect.objectContaining({ route_code: 'PACT-1' }),
    ]);
  });

  it('sets each state up absolutely, whatever state ran before and without teardown', async () => {
    const seller = createMockSeller(readDefaultScenario());
    const line = { mfr_code: 'WIX', part_number: '49100', location_id: 'L101' };
    const order = (quantity: number) => ({
      service: 'place_order',
      purchase_order_number: 'PO',
      order_type: 1,
      items: [{ id: 'i', ...line, quantity_ordered: quantity, account_id: 'A-1001', member_id: 'M100' }],
    });
    await setUp(seller, 'order will be backordered', { ...line, quantity: 5 });
    await setUp(seller, 'order can be received', { ...line, quantity: 5 });
    expect((await json(call(seller, 'POST', '/seller', order(5)))).items[0].status_code).toBe(1);
    await setUp(seller, 'part is unknown', line);
    await setUp(seller, 'part exists', { ...line, second_location_id: 'L150' });
    expect(
      (await ask(seller, inquiry('WIX', '49100', ['L101', 'L150']))).items.map(
        (e: { status_code: number }) => e.status_code,
      ),
    ).toEqual([1]);
    await setUp(seller, 'part has alternate', { ...line, related_mfr_code: 'BOS', related_part_number: 'BC905' });
    await setUp(seller, 'part exists', { ...line, second_location_id: 'L150' });
    expect((await ask(seller, inquiry('WIX', '49100'))).items).toHaveLength(1);
  });

  it('answers 400 for an unknown state or a missing parameter', async () => {
    const seller = createMockSeller(readDefaultScenario());
    const unknown = await setUp(seller, 'moon is full', {});
    expect(unknown.status).toBe(400);
    expect((await json(unknown)).message).toContain('part exists');
    const missing = await setUp(seller, 'part exists', { mfr_code: 'WIX' });
    expect((await json(missing)).errors).toEqual([expect.objectContaining({ path: '/params/part_number' })]);
  });
});
