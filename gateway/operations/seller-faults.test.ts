import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../testing/test-gateway';
import { createGateway, V3_2 } from '../app';
import { gatewayConfig } from '../gateway-config';
import type { FaultRuleInput } from '../../mock-seller/index';
import { unusedPort } from '../../shared/http/listen';

// Seller faults become codes, never crashes; a reply that breaks a rule is never passed on
// silently. Each request carries its fault in the mock seller's `x-mock-fault` header, which
// this gateway is configured to pass on (config.forwardHeaders, off by default).

interface Detail {
  path: string;
  message: string;
  rule?: string;
  id?: string;
  member?: string;
}
interface Reply {
  status_code: number;
  message: string;
  errors?: Detail[];
  status?: string;
  error_description?: string;
  invoices?: unknown[];
  statements?: unknown[];
}

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway({
    setupSql: ['UPDATE members SET timeout_ms = 400'],
    config: { forwardHeaders: ['x-mock-fault'] },
  });
});
afterEach(() => gw.seller.seller.releaseHanging());
afterAll(() => gw.close());

const ONE_LOCATION = [{ id: 'L101', member: 'M100', account: 'A-1001' }];
const INQUIRY = {
  items: [
    { id: 'item-1', mfr_code: 'WIX', part_number: '51515' },
    { id: 'item-2', mfr_code: 'GAT', part_number: '22433' },
  ],
  locations: ONE_LOCATION,
};

type Fault = FaultRuleInput['fault'];
/** The mock seller's header syntax: kind;param=value;… */
const faultHeader = ({ kind, ...params }: Fault) =>
  [kind, ...Object.entries(params).map(([k, v]) => `${k}=${v}`)].join(';');

async function inquire(fault?: Fault, app = gw.app) {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    authorization: `Bearer ${await gw.token()}`,
  };
  if (fault !== undefined) headers['x-mock-fault'] = faultHeader(fault);
  const response = await app.request(`${V3_2}/item_inquiry`, {
    method: 'POST',
    headers,
    body: JSON.stringify(INQUIRY),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Reply };
}

describe('seller faults', () => {
  it('a seller past its deadline is 4408', async () => {
    const { status, body } = await inquire({ kind: 'latency', ms: 1_000 });
    expect(status).toBe(504);
    expect(body.status_code).toBe(4408);
    expect(body.message).toContain('did not answer within 400 ms');
  });

  it('a seller that never answers is 4408', async () => {
    expect((await inquire({ kind: 'hang' })).body.status_code).toBe(4408);
  });

  it('a reset connection is 5503', async () => {
    const { status, body } = await inquire({ kind: 'reset' });
    expect(status).toBe(503);
    expect(body.status_code).toBe(5503);
  });

  it('HTTP 5xx from the seller is 5503', async () => {
    const { body } = await inquire({ kind: 'http-status', status: 502 });
    expect(body.status_code).toBe(5503);
    expect(body.message).toContain('HTTP 502');
  });

  it('a refused connection is 5503', async () => {
    const port = await unusedPort();
    const closed = createGateway({
      store: gw.store,
      sellerClient: gw.sellerClient,
      logger: () => {},
      directory: {
        ...gw.directory,
        // Answers that differ from the real directory's: its in-memory answers must not be used.
        cached: undefined,
        findMember: async (id) => {
          const member = await gw.directory.findMember(id);
          return member && { ...member, sellerUrl: `http://127.0.0.1:${port}/seller` };
        },
      },
    });
    const { body } = await inquire(undefined, closed);
    expect(body.status_code).toBe(5503);
    expect(body.message).toContain('ECONNREFUSED');
  });

  it('malformed JSON from the seller is 5500 with a clear message', async () => {
    const { status, body } = await inquire({ kind: 'malformed-json' });
    expect(status).toBe(502);
    expect(body.status_code).toBe(5500);
    expect(body.message).toContain('not JSON');
  });

  it('a schema-invalid reply is 5500 naming the path', async () => {
    const { body } = await inquire({ kind: 'missing-field', field: '/items/0/locations' });
    expect(body.status_code).toBe(5500);
    expect(body.message).toContain('does not match the contract');
    expect(body.errors).toContainEqual(
      expect.objectContaining({ path: '/items/0/locations', message: 'is required', member: 'M100' }),
    );
  });

  it('invoice faults answer in the invoice envelope', async () => {
    const response = await gw.post(
      `${V3_2}/invoice`,
      { member: 'M100' },
      { headers: { 'x-mock-fault': 'http-status;status=500' } },
    );
    const body = (await response.json()) as Reply;
    expect(response.status).toBe(503);
    expect(body).toMatchObject({ status: 'error', status_code: 5503, invoices: [] });
    expect(body.error_description).toMatch(/^Service offline: /);
  });

  it('statement faults answer in the statement envelope', async () => {
    const response = await gw.post(
      `${V3_2}/statement`,
      { account: 'A-1001', from_statement_date: '2026-08-01', to_statement_date: '2026-12-31' },
      { headers: { 'x-mock-fault': 'latency;ms=1000' } },
    );
    const body = (await response.json()) as Reply;
    expect(body).toMatchObject({ status: 'error', status_code: 4408, statements: [] });
  });
});

describe('passing headers on', () => {
  it('passes no buyer header to the seller unless configured to', async () => {
    const plain = createGateway({
      store: gw.store,
      directory: gw.directory,
      sellerClient: gw.sellerClient,
      logger: false,
    });
    // The fault header would fail the reply; without forwarding the seller never sees it.
    const { status } = await inquire({ kind: 'malformed-json' }, plain);
    expect(status).toBe(200);
  });
});

describe('reply rules (strict mode)', () => {
  const cases: [Fault, string][] = [
    [{ kind: 'drop-id', id: 'item-2' }, 'item.id-echo'],
    [{ kind: 'add-unknown-id' }, 'item.unknown-id'],
    [{ kind: 'change-id', id: 'item-2' }, 'item.unknown-id'],
    [{ kind: 'wrong-original-part', id: 'item-1' }, 'alternate.original-part'],
    [{ kind: 'wrong-original-mfr', id: 'item-1' }, 'alternate.original-mfr'],
    [{ kind: 'extra-location' }, 'location.not-forwarded'],
  ];
  for (const [broken, rule] of cases) {
    it(`refuses a reply breaking ${rule} with 5500 naming the rule, id and path`, async () => {
      const { status, body } = await inquire(broken);
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
    const response = await gw.post(
      `${V3_2}/place_order`,
      {
        purchase_order_number: 'PO-RULES-1',
        order_type: 1,
        items: [{ id: 'l1', mfr_code: 'WIX', part_number: '51515', location_id: 'L101', quantity_ordered: 1 }],
      },
      { headers: { 'x-mock-fault': 'drop-id' } },
    );
    const body = (await response.json()) as Reply;
    expect(body.status_code).toBe(5500);
    expect(body.errors!.map((e) => e.rule)).toContain('order.id-echo');
  });
});

describe('reply rules (lenient mode)', () => {
  it('passes a rule-breaking reply on with a warning header and a log line', async () => {
    const logs: Record<string, unknown>[] = [];
    const lenient = createGateway({
      store: gw.store,
      directory: gw.directory,
      sellerClient: gw.sellerClient,
      config: gatewayConfig({ lenientMembers: ['M100'], forwardHeaders: ['x-mock-fault'] }),
      logger: (e) => logs.push(e),
    });
    const { status, headers, body } = await inquire({ kind: 'drop-id', id: 'item-2' }, lenient);
    expect(status).toBe(200);
    expect(body.status_code).toBe(2000);
    expect(headers.get('x-contract-warning')).toContain('M100 item.id-echo');
    expect(logs.at(-1)!.warnings).toEqual([expect.stringContaining('item.id-echo')]);
  });

  it("follows the member's reply_mode in the directory", async () => {
    await gw.store.query("UPDATE members SET reply_mode = 'lenient' WHERE id = 'M100'");
    gw.directory.invalidate();
    try {
      const { status, headers, body } = await inquire({ kind: 'extra-location' });
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
    const lenient = createGateway({
      store: gw.store,
      directory: gw.directory,
      sellerClient: gw.sellerClient,
      config: gatewayConfig({ lenientMembers: ['M100'], forwardHeaders: ['x-mock-fault'] }),
      logger: () => {},
    });
    expect((await inquire({ kind: 'missing-field', field: '/items/0/status_code' }, lenient)).body.status_code).toBe(
      5500,
    );
  });
});
