import { describe, expect, it } from 'vitest';
import { firstDifference } from './order-difference';

// The field a repeated order is refused for: the first that differs, as a JSON pointer.

const order = (quantity = 2, extra: object = {}) => ({
  purchase_order_number: 'PO-1',
  order_type: 1,
  items: [
    { id: 'a', location_id: 'L101', quantity_ordered: 1 },
    { id: 'b', location_id: 'L101', quantity_ordered: quantity },
  ],
  ...extra,
});

describe('firstDifference', () => {
  it('finds none between the same order written with other key order', () => {
    const reordered = JSON.parse(
      '{"items":[{"quantity_ordered":1.0,"id":"a","location_id":"L101"},{"id":"b","quantity_ordered":2,"location_id":"L101"}],"order_type":1,"purchase_order_number":"PO-1"}',
    ) as unknown;
    expect(firstDifference(order(), reordered)).toBeUndefined();
  });

  it('names the changed leaf inside an item', () => {
    expect(firstDifference(order(2), order(3))).toBe('/items/1/quantity_ordered');
  });

  it('names a field present on one side only, and the first item one list lacks', () => {
    expect(firstDifference(order(), order(2, { comment: 'rush' }))).toBe('/comment');
    const shorter = { ...order(), items: order().items.slice(0, 1) };
    expect(firstDifference(order(), shorter)).toBe('/items/1');
  });

  it('reports the first difference in sorted key order, and escapes pointer characters', () => {
    expect(firstDifference(order(2, { ship_via: 'UPS' }), order(3, { ship_via: 'FedEx' }))).toBe(
      '/items/1/quantity_ordered',
    );
    expect(firstDifference({ 'a/b~c': 1 }, { 'a/b~c': 2 })).toBe('/a~1b~0c');
  });

  it('tells a type change and an inherited-looking key apart from equality', () => {
    expect(firstDifference({ x: 1 }, { x: '1' })).toBe('/x');
    expect(firstDifference({}, { constructor: 1 })).toBe('/constructor');
    expect(firstDifference({ x: null }, { x: {} })).toBe('/x');
  });
});
