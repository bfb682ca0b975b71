import { describe, expect, it } from 'vitest';
import { checkScenario } from '../scenario-file';
import { mergeInOrder } from './merge-in-order';
import { createScenarioLearner } from './scenario-learner';

const at = (id: string, quantity_available: number) => ({
  id,
  type: 1,
  cost: 5,
  list: 9,
  pack_code: 'EA',
  pack_quantity: 1,
  quantity_available,
});
const inquiry = {
  service: 'item_inquiry',
  locations: [{ id: 'L1', member: 'M1', account: 'A1' }],
  items: [{ id: 'a', mfr_code: 'WIX', part_number: '1' }],
};
const order = (quantity: number) => ({
  service: 'place_order',
  purchase_order_number: 'PO',
  order_type: 1,
  items: [
    {
      id: 'o',
      mfr_code: 'WIX',
      part_number: '1',
      location_id: 'L1',
      quantity_ordered: quantity,
      account_id: 'A1',
      member_id: 'M1',
    },
  ],
});
const received = (quantity: number) => ({
  order_number: 'SO-1',
  status_code: 2000,
  items: [{ id: 'o', status_code: 1, quantity_ordered: quantity }],
});

describe('createScenarioLearner', () => {
  it('learns the stock a seller started with when orders came before the inquiry', () => {
    const learner = createScenarioLearner({ recordedOn: '2026-11-23' });
    learner.learn(order(3), 200, received(3));
    learner.learn(inquiry, 200, {
      status_code: 2000,
      items: [{ id: 'a', mfr_code: 'WIX', part_number: '1', status_code: 1, locations: [at('L1', 7)] }],
    });
    const scenario = checkScenario(learner.scenario());
    expect(scenario.parts[0].stock).toEqual([
      { location_id: 'L1', cost: 5, list: 9, pack_code: 'EA', pack_quantity: 1, quantity_available: 10 },
    ]);
  });

  it('keeps related parts in the order the seller lists them, without duplicates, and never a part as its own', () => {
    const learner = createScenarioLearner({ recordedOn: '2026-11-23' });
    const entry = (part_number: string, status_code: number) => ({
      id: 'a',
      mfr_code: 'WIX',
      part_number,
      status_code,
      locations: [at('L1', 1)],
      ...(status_code > 1 ? { original_part: '1', original_mfr: 'WIX' } : {}),
    });
    learner.learn(inquiry, 200, { status_code: 2000, items: [entry('1', 1), entry('C', 4)] });
    learner.learn(inquiry, 200, {
      status_code: 2000,
      items: [entry('1', 1), entry('A', 2), entry('1', 2), entry('C', 4)],
    });
    const scenario = checkScenario(learner.scenario());
    expect(scenario.parts.find((p) => p.part_number === '1')!.related).toEqual([
      { kind: 'alternate', mfr_code: 'WIX', part_number: 'A' },
      { kind: 'equivalent', mfr_code: 'WIX', part_number: 'C' },
    ]);
  });

  it('learns nothing from unknown parts, errors and failed answers, and counts fields it cannot keep', () => {
    const learner = createScenarioLearner({ recordedOn: '2026-11-23' });
    learner.learn(inquiry, 200, {
      status_code: 2000,
      items: [{ id: 'a', mfr_code: 'WIX', part_number: '1', status_code: 0, locations: [] }],
    });
    learner.learn(inquiry, 503, 'down');
    learner.learn({ service: 'invoice', member: 'M1', account: 'A9' }, 200, {
      status: 'error',
      error_description: 'Unknown account',
      invoices: [],
    });
    expect(learner.scenario()).toBeUndefined();
    learner.learn(inquiry, 200, {
      status_code: 2000,
      items: [{ id: 'a', mfr_code: 'WIX', part_number: '1', status_code: 1, warranty: '2y', locations: [at('L1', 1)] }],
    });
    expect(learner.dropped.get('item_inquiry /items/*/warranty')).toBe(1);
  });
});

describe('mergeInOrder', () => {
  it('places what a later reply shows before known elements where that reply has it', () => {
    const list = mergeInOrder(['C', 'D'], ['A', 'B', 'C', 'D', 'E'], (x) => x);
    expect(list).toEqual(['A', 'B', 'C', 'D', 'E']);
  });
});
