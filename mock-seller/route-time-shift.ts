import type { Scenario } from '../contracts/schemas/scenario';

// A recorded scenario's route times are the recording day's: a replay a week later would
// offer cutoffs already a week past. With `recorded_on`, every route time moves by the days
// from that day to today (wall-clock times kept), and `recorded_on` becomes today, so the
// live scenario read back and loaded again is not shifted twice.

const DAY_MS = 86_400_000;

/** Today's date where the mock runs, YYYY-MM-DD. */
export const localDate = (now = new Date()) =>
  `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;

// Wall-clock strings are moved as if they were UTC: whole days, no daylight-saving drift.
const shift = (routeTime: string, days: number) =>
  new Date(Date.parse(`${routeTime.replace(' ', 'T')}Z`) + days * DAY_MS).toISOString().slice(0, 19).replace('T', ' ');

export function shiftRouteTimes(scenario: Scenario, today = localDate()): Scenario {
  if (scenario.recorded_on === undefined || scenario.recorded_on === today) return scenario;
  const days = Math.round((Date.parse(today) - Date.parse(scenario.recorded_on)) / DAY_MS);
  return {
    ...scenario,
    recorded_on: today,
    locations: scenario.locations.map((location) =>
      location.route_times === undefined
        ? location
        : {
            ...location,
            route_times: location.route_times.map((rt) => ({
              ...rt,
              cutoff_time: shift(rt.cutoff_time, days),
              arrival_time: shift(rt.arrival_time, days),
              pickup_time: shift(rt.pickup_time, days),
            })),
          },
    ),
  };
}
