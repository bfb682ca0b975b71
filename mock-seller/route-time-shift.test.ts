import { describe, expect, it } from 'vitest';
import type { Scenario } from '../contracts/schemas/scenario';
import { createMockSeller } from './index';
import { localDate, shiftRouteTimes } from './route-time-shift';

const scenario = (recorded_on?: string): Scenario => ({
  name: 'recorded',
  ...(recorded_on === undefined ? {} : { recorded_on }),
  members: [{ id: 'M1', name: 'M1' }],
  locations: [
    {
      id: 'L1',
      member: 'M1',
      description: 'L1',
      type: 1,
      route_times: [
        {
          cutoff_time: '2026-02-27 10:00:00',
          arrival_time: '2026-02-28 23:30:00',
          pickup_time: '2026-03-01 00:15:00',
          route_code: 'R1',
        },
      ],
    },
    { id: 'L2', member: 'M1', description: 'L2', type: 2 },
  ],
  parts: [],
  accounts: [],
});

describe('shiftRouteTimes', () => {
  it('moves every route time by the days from recorded_on to today, keeping the time of day', () => {
    const shifted = shiftRouteTimes(scenario('2026-02-27'), '2026-03-03');
    expect(shifted.locations[0].route_times).toEqual([
      {
        cutoff_time: '2026-03-03 10:00:00',
        arrival_time: '2026-03-04 23:30:00',
        pickup_time: '2026-03-05 00:15:00',
        route_code: 'R1',
      },
    ]);
    expect(shifted.recorded_on).toBe('2026-03-03'); // read back and loaded again: not shifted twice
    expect(shiftRouteTimes(shifted, '2026-03-03')).toBe(shifted);
  });

  it('leaves a scenario without recorded_on as it is', () => {
    const plain = scenario();
    expect(shiftRouteTimes(plain, '2030-01-01')).toBe(plain);
  });

  it('is applied when the mock seller loads a recorded scenario', () => {
    const seller = createMockSeller(scenario('2026-02-27'));
    expect(seller.data.scenario.recorded_on).toBe(localDate());
    expect(seller.data.scenario.locations[0].route_times![0].cutoff_time.slice(0, 10)).toBe(localDate());
  });
});
