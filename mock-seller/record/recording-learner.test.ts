import { describe, expect, it } from 'vitest';
import { checkScenario } from '../scenario-file';
import { createScenarioLearner } from './scenario-learner';
import { createRecordingLearner, NOT_JSON } from './recording-learner';

// What a vendor's seller (its own catalogue) answered in the recording that lost everything:
// two inquiries and an invoice, then an order whose forwarded body carried extra top-level
// fields (and its lines no member_id).

const at = (id: string, quantity_available: number) => ({
  id,
  type: 1,
  cost: 5,
  list: 9,
  pack_code: 'EA',
  pack_quantity: 1,
  quantity_available,
});
const inquiry = (part_number: string) => ({
  service: 'item_inquiry',
  locations: [{ id: 'V1', member: 'M9', account: 'A9' }],
  items: [{ id: 'a', mfr_code: 'ACME', part_number }],
});
const found = (part_number: string) => ({
  status_code: 2000,
  items: [{ id: 'a', mfr_code: 'ACME', part_number, status_code: 1, locations: [at('V1', 4)] }],
});
const invoice = { service: 'invoice', member: 'M9', account: 'A9' };
const invoices = {
  status: 'success',
  invoices: [
    {
      invoice_number: 'INV-1',
      invoice_date: '2026-11-02',
      account_id: 'A9',
      location_id: 'V1',
      location_description: 'Vendor main',
      po_number: 'PO-0',
      item_count: 1,
      total_cost: 10,
      invoice_detail: [],
      link_url: 'http://vendor.test/inv/1',
    },
  ],
};
const oddOrder = {
  service: 'place_order',
  purchase_order_number: 'PO-1',
  order_type: 1,
  member_id: 'M9',
  account_id: 'A9',
  items: [{ id: 'o', mfr_code: 'ACME', part_number: 'P1', location_id: 'V1', quantity_ordered: 1, account_id: 'A9' }],
};
const orderReceived = {
  order_number: 'SO-1',
  status_code: 2000,
  items: [{ id: 'o', status_code: 1, quantity_ordered: 1 }],
};

const SEQUENCE: [unknown, number, unknown][] = [
  [inquiry('P1'), 200, found('P1')],
  [inquiry('P2'), 200, found('P2')],
  [invoice, 200, invoices],
  [oddOrder, 200, orderReceived],
];

describe('createRecordingLearner', () => {
  it('the plain learner turns the odd order into an invalid scenario (the reported failure)', () => {
    const plain = createScenarioLearner({ recordedOn: '2026-11-23' });
    for (const [request, status, reply] of SEQUENCE) plain.learn(request, status, reply);
    expect(() => checkScenario(plain.scenario())).toThrow(
      expect.objectContaining({ issues: expect.arrayContaining([expect.objectContaining({ path: '/members/1/id' })]) }),
    );
  });

  it('keeps the three good exchanges and leaves out, with why, the order that breaks the seller-request schema', () => {
    const learner = createRecordingLearner({ recordedOn: '2026-11-23' });
    const outcomes = SEQUENCE.map(([request, status, reply], i) => learner.learn(i + 1, request, status, reply).kind);
    expect(outcomes).toEqual(['learned', 'learned', 'learned', 'left-out']);
    const scenario = checkScenario(learner.scenario());
    expect(scenario.members).toEqual([{ id: 'M9', name: 'M9' }]);
    expect(scenario.parts.map((p) => p.part_number)).toEqual(['P1', 'P2']);
    expect(scenario.accounts[0].invoices.map((inv) => inv.invoice_number)).toEqual(['INV-1']);
    expect(learner.leftOut).toEqual([
      {
        exchange: 4,
        service: 'place_order',
        why: expect.stringMatching(/seller-request schema at \/(member_id|account_id|items\/0)/),
      },
    ]);
  });

  it('leaves out a 200 it cannot read (not JSON, or not the reply schema) and learns nothing from an error answer', () => {
    const learner = createRecordingLearner({ recordedOn: '2026-11-23' });
    expect(learner.learn(1, inquiry('P1'), 200, NOT_JSON)).toMatchObject({ kind: 'left-out', why: /not JSON/ });
    expect(learner.learn(2, inquiry('P1'), 200, { status_code: 2000, items: 'none' })).toMatchObject({
      kind: 'left-out',
      why: /seller-reply schema at \/items/,
    });
    expect(learner.learn(3, NOT_JSON, 200, found('P1'))).toMatchObject({
      kind: 'left-out',
      why: /request is not JSON/,
    });
    expect(learner.learn(4, inquiry('P1'), 503, NOT_JSON)).toEqual({ kind: 'nothing-to-learn' });
    expect(learner.scenario()).toBeUndefined();
    expect(learner.leftOut.map((l) => l.exchange)).toEqual([1, 2, 3]);
  });

  it('leaves out the exchange that, with those before it, would make the scenario invalid, and keeps the rest', () => {
    // Each exchange alone is fine; together the learned start stock (what an inquiry showed plus
    // what orders received before it) passes the scenario's bound on quantities (10^15).
    const order = (id: string) => ({
      service: 'place_order',
      purchase_order_number: `PO-${id}`,
      order_type: 1,
      items: [
        {
          id,
          mfr_code: 'ACME',
          part_number: 'P1',
          location_id: 'V1',
          quantity_ordered: 100_000,
          account_id: 'A9',
          member_id: 'M9',
        },
      ],
    });
    const received = (id: string) => ({
      order_number: `SO-${id}`,
      status_code: 2000,
      items: [{ id, status_code: 1, quantity_ordered: 100_000 }],
    });
    const nearTheBound = {
      status_code: 2000,
      items: [{ id: 'a', mfr_code: 'ACME', part_number: 'P1', status_code: 1, locations: [at('V1', 1e15 - 1)] }],
    };
    const learner = createRecordingLearner({ recordedOn: '2026-11-23' });
    learner.learn(1, inquiry('P2'), 200, found('P2'));
    learner.learn(2, order('x'), 200, received('x'));
    learner.learn(3, inquiry('P1'), 200, nearTheBound);
    learner.learn(4, invoice, 200, invoices);
    const scenario = checkScenario(JSON.parse(JSON.stringify(learner.scenario())));
    expect(scenario.parts.map((p) => p.part_number).sort()).toEqual(['P1', 'P2']);
    expect(scenario.accounts).toHaveLength(1);
    expect(learner.leftOut).toEqual([
      { exchange: 3, service: 'item_inquiry', why: expect.stringMatching(/with what came before it/) },
    ]);
  });
});
