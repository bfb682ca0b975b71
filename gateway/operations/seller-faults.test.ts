import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { startTestGateway, type TestGateway } from '../testing/test-gateway';
import { createGateway, V3_2 } from '../app';
import { gatewayConfig } from '../config';
import type { FaultRuleInput } from '../../mock-seller/app';

// Seller faults become codes, never crashes; a reply that breaks a rule is never passed on
// silently. Faults are set on the in-process mock seller for the next request only.

interface Detail { path: string; message: string; rule?: string; id?: string; member?: string }
interface Reply { status_code: number; message: string; errors?: Detail[]; status?: string; error_description?: string; invoices?: unknown[]; statements?: unknown[] }

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway({ setupSql: ['UPDATE members SET timeout_ms = 400'] });
});
afterEach(() => {
  gw.seller.seller.faults.clear();
  gw.seller.seller.releaseHanging();
});
afterAll(() => gw.close());

const ONE_LOCATION = [{ id: 'L101', member: 'M100', account: 'A-1001' }];
const INQUIRY = { items: [{ id: 'item-1', mfr_code: 'WIX', part_number: '51515' }, { id: 'item-2', mfr_code: 'GAT', part_number: '22433' }], locations: ONE_LOCATION };

const fault = (service: FaultRuleInput['service'], f: FaultRuleInput['fault']) => gw.seller.seller.faults.add({ service, fault: f, count: 1 });

async function inquire(app = gw.app) {
  const response = await app.request(`${V3_2}/item_inquiry`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${await gw.token()}` },
    body: JSON.stringify(INQUIRY),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Reply };
}

describe('seller faults', () => {
  it('a seller past its deadline is 4408', async () => {
    fault('item_inquiry', { kind: 'latency', ms: 1_000 });
    const { status, body } = await inquire();
    expect(status).toBe(504);
    expect(body.status_code).toBe(4408);
    expect(body.message).toContain('did not answer within 400 ms');
  });

  it('a seller that never answers is 4408', async () => {
    fault('item_inquiry', { kind: 'hang' });
    expect((await inquire()).body.status_code).toBe(4408);
  });

  it('a reset connection is 5503', async () => {
    fault('item_inquiry', { kind: 'reset' });
    const { status, body } = await inquire();
    expect(status).toBe(503);
    expect(body.status_code).toBe(5503);
  });

  it('HTTP 5xx from the seller is 5503', async () => {
    fault('item_inquiry', { kind: 'http-status', status: 502 });
    const { body } = await inquire();
    expect(body.status_code).toBe(5503);
    expect(body.message).toContain('HTTP 502');
  });

  it('a refused connection is 5503', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    const closed = createGateway({
      store: gw.store,
      sellerClient: gw.sellerClient,
      logger: () => {},
      directory: {
        ...gw.directory,
        findMember: async (id) => {
          const member = await gw.directory.findMember(id);
          return member && { ...member, sellerUrl: `http://127.0.0.1:${port}/seller` };
        },
      },
    });
    const { body } = await inquire(closed);
    expect(body.status_code).toBe(5503);
    expect(body.message).toContain('ECONNREFUSED');
  });

  it('malformed JSON from the seller is 5500 with a clear message', async () => {
    fault('item_inquiry', { kind: 'malformed-json' });
    const { status, body } = await inquire();
    expect(status).toBe(502);
    expect(body.status_code).toBe(5500);
    expect(body.message).toContain('not JSON');
  });

  it('a schema-invalid reply is 5500 naming the path', async () => {
    fault('item_inquiry', { kind: 'missing-field', field: '/items/0/locations' });
    const { body } = await inquire();
    expect(body.status_code).toBe(5500);
    expect(body.message).toContain('does not match the contract');
    expect(body.errors).toContainEqual(expect.objectContaining({ path: '/items/0/locations', message: 'is required', member: 'M100' }));
  });

  it('invoice faults answer in the invoice envelope', async () => {
    fault('invoice', { kind: 'http-status', status: 500 });
    const response = await gw.post(`${V3_2}/invoice`, { member: 'M100' });
    const body = (await response.json()) as Reply;
    expect(response.status).toBe(503);
    expect(body).toMatchObject({ status: 'error', status_code: 5503, invoices: [] });
    expect(body.error_description).toMatch(/^Service offline: /);
  });

  it('statement faults answer in the statement envelope', async () => {
    fault('statement', { kind: 'latency', ms: 1_000 });
    const response = await gw.post(`${V3_2}/statement`, { account: 'A-1001', from_statement_date: '2026-08-01', to_statement_date: '2026-12-31' });
    const body = (await response.json()) as Reply;
    expect(body).toMatchObject({ status: 'error', status_code: 4408, statements: [] });
  });
});

describe('reply rules (strict mode)', () => {
  const cases: [FaultRuleInput['fault'], string][] = [
    [{ kind: 'drop-id', id: 'item-2' }, 'item.id-echo'],
    [{ kind: 'add-unknown-id' }, 'item.unknown-id'],
    [{ kind: 'change-id', id: 'item-2' }, 'item.unknown-id'],
    [{ kind: 'wrong-original-part', id: 'item-1' }, 'alternate.original-part'],
    [{ kind: 'wrong-original-mfr', id: 'item-1' }, 'alternate.original-mfr'],
    [{ kind: 'extra-location' }, 'location.not-forwarded'],
  ];
  for (const [broken, rule] of cases) {
    it(`refuses a reply breaking ${rule} with 5500 naming the rule, id and path`, async () => {
      fault('item_inquiry', broken);
      const { status, body } = await inquire();
      expect(status).toBe(502);
      expect(body.status_code).toBe(5500);
      expect(body.message).toContain(rule);
      const detail = body.errors!.find((e) => e.rule === rule)!;
      expect(detail).toBeDefined();
      expect(detail.path).toMatch(/^\/items/);
      expect(detail.member).toBe('M100');
      if (rule !== 'location.not-forwarded' && rule !== 'item.unknown-id') expect(detail.id).toBe(broken.id);
    });
  }

  it('refuses an order reply that drops an ordered id (order.id-echo)', async () => {
    fault('place_order', { kind: 'drop-id' });
    const response = await gw.post(`${V3_2}/place_order`, { purchase_order_number: 'PO-RULES-1', order_type: 1, items: [{ id: 'l1', mfr_code: 'WIX', part_number: '51515', location_id: 'L101', quantity_ordered: 1 }] });
    const body = (await response.json()) as Reply;
    expect(body.status_code).toBe(5500);
    expect(body.errors!.map((e) => e.rule)).toContain('order.id-echo');
  });
});

describe('reply rules (lenient mode)', () => {
  it('passes a rule-breaking reply on with a warning header and a log line', async () => {
    const logs: Record<string, unknown>[] = [];
    const lenient = createGateway({ store: gw.store, directory: gw.directory, sellerClient: gw.sellerClient, config: gatewayConfig({ lenientMembers: ['M100'] }), logger: (e) => logs.push(e) });
    fault('item_inquiry', { kind: 'drop-id', id: 'item-2' });
    const { status, headers, body } = await inquire(lenient);
    expect(status).toBe(200);
    expect(body.status_code).toBe(2000);
    expect(headers.get('x-contract-warning')).toContain('M100 item.id-echo');
    expect(logs.at(-1)!.warnings).toEqual([expect.stringContaining('item.id-echo')]);
  });

  it("follows the member's reply_mode in the directory", async () => {
    await gw.store.query("UPDATE members SET reply_mode = 'lenient' WHERE id = 'M100'");
    gw.directory.invalidate();
    try {
      fault('item_inquiry', { kind: 'extra-location' });
      const { status, headers, body } = await inquire();
      expect(status).toBe(200);
      expect(headers.get('x-contract-warning')).toContain('location.not-forwarded');
      // Even passed on, a location that was not asked for never reaches the buyer.
      for (const item of (body as unknown as { items: { locations: { id: string }[] }[] }).items) {
        expect(item.locations.every((l) => l.id === 'L101')).toBe(true);
      }
    } finally {
      await gw.store.query("UPDATE members SET reply_mode = 'strict' WHERE id = 'M100'");
      gw.directory.invalidate();
    }
  });

  it('still refuses a schema-invalid reply from a lenient member', async () => {
    const lenient = createGateway({ store: gw.store, directory: gw.directory, sellerClient: gw.sellerClient, config: gatewayConfig({ lenientMembers: ['M100'] }), logger: () => {} });
    fault('item_inquiry', { kind: 'missing-field', field: '/items/0/status_code' });
    expect((await inquire(lenient)).body.status_code).toBe(5500);
  });
});
