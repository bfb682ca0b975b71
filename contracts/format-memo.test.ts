import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createFormatMemo } from './format-memo';
import { isRouteTime } from './formats';
import { validators } from './validator';
import { buildItemInquiryExchange } from './testing/large-exchange';

const ROUTE_TIME_FIELDS = { cutoff_time: 'route-time', arrival_time: 'route-time', pickup_time: 'route-time' } as const;
const routeTime = (cutoff: string, arrival = '2026-03-02 12:00:00', pickup = '2026-03-02 12:15:00') => ({
  cutoff_time: cutoff,
  arrival_time: arrival,
  pickup_time: pickup,
  route_code: 'R1',
});

describe('the memo of accepted route times', () => {
  const memoOfRouteTimes = () => createFormatMemo({ list: 'route_times', fields: ROUTE_TIME_FIELDS });

  it('refuses a bad route time at a place whose good route times it remembers', () => {
    const memo = memoOfRouteTimes();
    expect(memo.holds({ id: 'L101', route_times: [routeTime('2026-03-02 10:30:00')] }, 0)).toBe(true);
    expect(memo.holds({ id: 'L101', route_times: [routeTime('2026-03-02 10:30:00')] }, 0)).toBe(true);
    // Same place, a day that does not exist: parsed, refused.
    expect(memo.holds({ id: 'L101', route_times: [routeTime('2026-02-30 10:30:00')] }, 0)).toBe(false);
    // Another field at that place, and a second entry the memo has no slot for yet.
    expect(memo.holds({ id: 'L101', route_times: [routeTime('2026-03-02 10:30:00', '2026-03-02 24:00:00')] }, 0)).toBe(
      false,
    );
    expect(
      memo.holds({ id: 'L101', route_times: [routeTime('2026-03-02 10:30:00'), routeTime('2026-03-02 10:30')] }, 0),
    ).toBe(false);
  });

  it('takes a changed schedule as the one to remember, and still refuses a bad value there', () => {
    const memo = memoOfRouteTimes();
    expect(memo.holds({ id: 'L101', route_times: [routeTime('2026-03-02 10:30:00')] }, 3)).toBe(true);
    expect(memo.holds({ id: 'L102', route_times: [routeTime('2026-03-03 10:30:00')] }, 3)).toBe(true);
    expect(memo.holds({ id: 'L101', route_times: [routeTime('2026-03-02 10:30:00')] }, 3)).toBe(true);
    expect(memo.holds({ id: 'L101', route_times: [routeTime('2026-03-02 10:30:0x')] }, 3)).toBe(false);
  });

  it('forgets between payloads', () => {
    const memo = memoOfRouteTimes();
    expect(memo.holds({ route_times: [routeTime('2026-03-02 10:30:00')] }, 0)).toBe(true);
    memo.forget();
    expect(memo.holds({ route_times: [routeTime('2026-03-02 10:30:00')] }, 0)).toBe(true);
    expect(memo.holds({ route_times: [routeTime('2026-02-29 10:30:00')] }, 0)).toBe(false);
  });

  it('leaves what is not a formatted string to the schema: no list, a non-object entry, a missing or non-string field', () => {
    const memo = memoOfRouteTimes();
    expect(memo.holds({ id: 'L101' }, 0)).toBe(true);
    expect(memo.holds({ id: 'L101', route_times: 'soon' }, 0)).toBe(true);
    expect(memo.holds({ id: 'L101', route_times: [null, 7, [routeTime('x')]] }, 0)).toBe(true);
    expect(memo.holds({ id: 'L101', route_times: [{ cutoff_time: 1030, route_code: 'R1' }] }, 0)).toBe(true);
    // A missing field does not excuse a bad neighbour.
    expect(memo.holds({ id: 'L101', route_times: [{ arrival_time: 'bad', route_code: 'R1' }] }, 0)).toBe(false);
  });

  it('checks every string where there is no place to remember (not an index, or past the last place kept)', () => {
    const memo = memoOfRouteTimes();
    for (const place of ['locations', 100_000]) {
      expect(memo.holds({ route_times: [routeTime('2024-02-29 10:30:00')] }, place)).toBe(true);
      expect(memo.holds({ route_times: [routeTime('2026-02-29 10:30:00')] }, place)).toBe(false);
    }
  });

  it('agrees with parsing every route time, over any sequence of places and values (property)', () => {
    // Few places and a small pool of good and bad values, so places are revisited and values repeat.
    const value = fc.constantFrom(
      '2026-03-02 10:30:00',
      '2026-03-02 12:00:00',
      '2024-02-29 08:00:00',
      '2026-02-29 08:00:00',
      '2026-03-02 24:00:00',
      '2026-03-02 10:30',
      '',
    );
    const entry = fc.record({
      cutoff_time: value,
      arrival_time: value,
      pickup_time: value,
      route_code: fc.constant('R1'),
    });
    const visit = fc.record({
      place: fc.constantFrom(0, 1, 2),
      forget: fc.boolean(),
      route_times: fc.array(entry, { maxLength: 3 }),
    });
    fc.assert(
      fc.property(fc.array(visit, { minLength: 1, maxLength: 30 }), (visits) => {
        const memo = memoOfRouteTimes();
        for (const { place, forget, route_times } of visits) {
          if (forget) memo.forget();
          const expected = route_times.every(
            (t) => isRouteTime(t.cutoff_time) && isRouteTime(t.arrival_time) && isRouteTime(t.pickup_time),
          );
          if (memo.holds({ id: 'L101', route_times }, place) !== expected) return false;
        }
        return true;
      }),
      { numRuns: 300 },
    );
  });
});

describe('the seller-reply validator with the memo in its quick pass', () => {
  const validate = validators['item-inquiry']['seller-reply'];

  it('refuses a calendar-impossible route time deep in a reply whose other route times repeat (is() and the full result agree)', () => {
    const { reply } = buildItemInquiryExchange({ items: 10, alternates: 1, locations: 3 });
    expect(validate.is(reply)).toBe(true);
    const spoiled = structuredClone(reply);
    spoiled.items[17].locations[2].route_times![0].pickup_time = '2026-02-30 12:15:00';
    expect(validate.is(spoiled)).toBe(false);
    expect(validate(spoiled).errors).toEqual([
      {
        keyword: 'format',
        path: '/items/17/locations/2/route_times/0/pickup_time',
        message: 'must be a date and time YYYY-MM-DD HH:MM:SS',
      },
    ]);
    // and the honest reply again, after the memo saw the bad one
    expect(validate.is(structuredClone(reply))).toBe(true);
  });
});
