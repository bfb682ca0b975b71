import { describe, expect, it } from 'vitest';
import { measured, parseSlo, parseSlos, sloHolds, SloSyntaxError, type SloFigures } from './slo';

// SLO expressions as k6 writes thresholds: parsed to ms, counts and shares, refused with a
// message naming the part at fault; and held or breached on a step's figures.

const figures: SloFigures = {
  latencyMs: { p50: 10, p90: 40, p95: 120, p99: 900, max: 1500 },
  throughputPerS: 250,
  exchanges: 2000,
  errors: 3,
  timeouts: 0,
  dropped: 5,
};

describe('parseSlo', () => {
  it('reads latencies in ms and s (and k6 p(95)), rates, counts and shares', () => {
    expect(parseSlo('p95<300ms')).toMatchObject({ metric: 'p95', comparison: '<', value: 300, percent: false });
    expect(parseSlo(' p99 < 1s ')).toMatchObject({ expression: 'p99 < 1s', metric: 'p99', value: 1000 });
    expect(parseSlo('p(90)<=250')).toMatchObject({ metric: 'p90', comparison: '<=', value: 250 });
    expect(parseSlo('errors<0.1%')).toMatchObject({ metric: 'errors', value: 0.1, percent: true });
    expect(parseSlo('timeouts=0')).toMatchObject({ metric: 'timeouts', comparison: '=', value: 0, percent: false });
    expect(parseSlo('timeouts==0')).toMatchObject({ comparison: '=' });
    expect(parseSlo('rps>=100')).toMatchObject({ metric: 'rps', comparison: '>=', value: 100 });
  });

  it.each([
    ['p97<1s', /unknown metric 'p97' in 'p97<1s' \(known: p50, p90, p95, p99, max, rps, errors, timeouts, dropped\)/],
    ['p95', /'p95' is not metric<value/],
    ['p95<abc', /'abc' in 'p95<abc' is not a number/],
    ['p95<10%', /p95 is a latency, in ms or s/],
    ['errors<5ms', /errors is a count or a share/],
    ['errors<150%', /a share above 100%/],
    ['rps>5%', /rps is requests per second/],
    ['p95<-1ms', /'-1ms' .* is not a number/],
  ])('refuses %s naming the fault', (text, message) => {
    expect(() => parseSlo(text)).toThrow(SloSyntaxError);
    expect(() => parseSlo(text)).toThrow(message);
  });

  it('refuses an empty entry in a list rather than pass it silently', () => {
    expect(() => parseSlos('p95<300ms,,p99<1s')).toThrow(/has an empty entry/);
    expect(parseSlos('p95<300ms,p99<1s').map((s) => s.metric)).toEqual(['p95', 'p99']);
  });
});

describe('sloHolds', () => {
  it('compares latency, rate, counts and shares of the exchanges', () => {
    expect(sloHolds(parseSlo('p95<300ms'), figures)).toBe(true);
    expect(sloHolds(parseSlo('p99<900ms'), figures)).toBe(false);
    expect(sloHolds(parseSlo('p99<=900ms'), figures)).toBe(true);
    expect(sloHolds(parseSlo('rps>250'), figures)).toBe(false);
    expect(sloHolds(parseSlo('errors<0.1%'), figures)).toBe(false); // 0.15%
    expect(measured(parseSlo('errors<0.1%'), figures)).toBeCloseTo(0.15, 5);
    expect(sloHolds(parseSlo('errors<0.2%'), figures)).toBe(true);
    expect(sloHolds(parseSlo('timeouts=0'), figures)).toBe(true);
    // Dropped as a share of what the schedule asked for (sent + dropped).
    expect(measured(parseSlo('dropped<1%'), figures)).toBeCloseTo((5 / 2005) * 100, 5);
  });

  it('holds nothing on a step that measured nothing', () => {
    expect(sloHolds(parseSlo('timeouts=0'), { ...figures, exchanges: 0 })).toBe(false);
  });
});
