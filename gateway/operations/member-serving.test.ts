// A member that is not live (pending certification, or suspended) serves no buyer: what the buyer
// named that reaches it is refused with 3110 (403, rule member.not-live) before any seller call,
// and an inquiry over all the buyer's locations leaves it out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../testing/test-gateway';
import { V3_2 } from '../app';
import { memberWriter } from '../directory/members';
import { OverallStatus } from '../../contracts/index';
import { MEMBER_NOT_LIVE_RULE } from './member-serving';

interface Refusal {
  status_code: number;
  message: string;
  errors: { path: string; rule?: string; member?: string; found?: string }[];
}

let gw: TestGateway;
let members: ReturnType<typeof memberWriter>;
beforeAll(async () => {
  gw = await startTestGateway();
  members = memberWriter({ store: gw.store, directory: gw.directory });
});
afterAll(() => gw.close());

const ITEMS = [{ id: 'i1', mfr_code: 'GAT', part_number: '22433' }];
const sellerCalls = () => gw.seller.seller.journal.entries({ limit: 1000 }).length;

async function refused(path: string, body: unknown): Promise<Refusal> {
  const calls = sellerCalls();
  const response = await gw.post(path, body);
  const reply = (await response.json()) as Refusal;
  expect(response.status, JSON.stringify(reply)).toBe(403);
  expect(reply.status_code).toBe(OverallStatus.LocationNotAllowed);
  expect(sellerCalls()).toBe(calls);
  return reply;
}

/** Puts M200 in `status` as an operator's write or the certificate would (pending: a reinstatement without one). */
async function putM200(status: 'pending' | 'suspended' | 'live') {
  const current = (await members.show('M200')).status;
  if (current === status) return;
  if (current !== 'suspended') await members.suspend('M200', { reason: 'test' }, 'test');
  if (status === 'pending') await members.reinstate('M200', {}, 'test');
  if (status === 'live') {
    await gw.store.query("UPDATE members SET status = 'live' WHERE id = 'M200'");
    gw.directory.invalidate();
  }
}

describe.each(['pending', 'suspended'] as const)('a member that is %s', (status) => {
  beforeAll(() => putM200(status));
  afterAll(() => putM200('live'));

  it('refuses an item inquiry listing its location, naming the location and the rule', async () => {
    const reply = await refused(`${V3_2}/item_inquiry`, {
      items: ITEMS,
      locations: [
        { id: 'L101', member: 'M100', account: 'A-1001' },
        { id: 'L201', member: 'M200', account: 'A-2001' },
      ],
    });
    expect(reply.message).toContain(`member 'M200' is ${status}`);
    expect(reply.errors).toEqual([
      expect.objectContaining({ path: '/locations/1/id', rule: MEMBER_NOT_LIVE_RULE, member: 'M200', found: status }),
    ]);
  });

  it("leaves it out of an inquiry over all the buyer's locations", async () => {
    const response = await gw.post(`${V3_2}/item_inquiry`, { items: ITEMS });
    expect(response.status).toBe(200);
    const reply = (await response.json()) as { items: { locations: { id: string }[] }[] };
    const ids = new Set(reply.items.flatMap((i) => i.locations.map((l) => l.id)));
    expect(ids.has('L101')).toBe(true);
    expect(ids.has('L201') || ids.has('L250')).toBe(false);
  });

  it('refuses an order at its location before recording it', async () => {
    const order = {
      purchase_order_number: `PO-NOT-LIVE-${status}`,
      order_type: 1,
      items: [{ id: 'o1', mfr_code: 'GAT', part_number: '22433', location_id: 'L201', quantity_ordered: 1 }],
    };
    const reply = await refused(`${V3_2}/place_order`, order);
    expect(reply.errors[0]).toMatchObject({ path: '/items/0/location_id', rule: MEMBER_NOT_LIVE_RULE });
    const { rows } = await gw.store.query('SELECT 1 FROM orders WHERE purchase_order_number = $1', [
      order.purchase_order_number,
    ]);
    expect(rows).toEqual([]);
  });

  it('refuses invoices naming it and statements of an account held there', async () => {
    const invoice = await refused(`${V3_2}/invoice`, { member: 'M200' });
    expect(invoice.errors[0]).toMatchObject({ path: '/member', rule: MEMBER_NOT_LIVE_RULE });
    const statement = await refused(`${V3_2}/statement`, {
      account: 'A-2001',
      from_statement_date: '2026-08-01',
      to_statement_date: '2026-09-30',
    });
    expect(statement.errors[0]).toMatchObject({ path: '/account', rule: MEMBER_NOT_LIVE_RULE });
  });
});

describe('a buyer whose every member is not live', () => {
  afterAll(async () => {
    await gw.store.query("UPDATE members SET status = 'live'");
    gw.directory.invalidate();
  });

  it('is refused an inquiry over all their locations, each member named', async () => {
    await members.suspend('M100', { reason: 'test' }, 'test');
    await members.suspend('M200', { reason: 'test' }, 'test');
    const reply = await refused(`${V3_2}/item_inquiry`, { items: ITEMS });
    expect(reply.message).toMatch(/^none of your locations is available/);
    expect(reply.errors.map((e) => e.member)).toEqual(['M100', 'M200']);
  });
});

it('serves the member again once it is live', async () => {
  const response = await gw.post(`${V3_2}/invoice`, { member: 'M200' });
  expect(response.status).toBe(200);
});
