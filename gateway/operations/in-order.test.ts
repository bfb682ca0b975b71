import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isInOrder, sortUnlessInOrder } from './in-order';

const byKey = (a: { key: number }, b: { key: number }) => a.key - b.key;

describe('sortUnlessInOrder', () => {
  it('gives what a stable sort gives, in place, for any list', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ key: fc.integer({ min: 0, max: 5 }), tag: fc.nat() })), (list) => {
        const expected = [...list].sort(byKey);
        const sorted = sortUnlessInOrder(list, byKey);
        expect(sorted).toBe(list);
        expect(sorted).toEqual(expected);
      }),
    );
  });

  it('leaves a list in order untouched, even a frozen one', () => {
    const list = Object.freeze([{ key: 1 }, { key: 1 }, { key: 2 }]) as { key: number }[];
    expect(isInOrder(list, byKey)).toBe(true);
    expect(sortUnlessInOrder(list, byKey)).toBe(list);
    expect(isInOrder([{ key: 2 }, { key: 1 }], byKey)).toBe(false);
  });
});
