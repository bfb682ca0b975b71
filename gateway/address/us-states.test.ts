import { describe, it, expect } from 'vitest';
import { isUsState, zipMatchesState, US_STATE_ZIP_PREFIXES } from './us-states';

describe('US states and ZIP prefixes', () => {
  it('knows the 50 states and DC', () => {
    const states = Object.keys(US_STATE_ZIP_PREFIXES).filter(
      (s) => !['PR', 'VI', 'GU', 'MP', 'AS', 'FM', 'MH', 'PW', 'AA', 'AE', 'AP'].includes(s),
    );
    expect(states).toHaveLength(51);
    expect(isUsState('DC')).toBe(true);
    expect(isUsState('QQ')).toBe(false);
    expect(isUsState('constructor')).toBe(false);
  });

  it('places well-known ZIPs in their states', () => {
    const known: [string, string][] = [
      ['10001', 'NY'],
      ['90210', 'CA'],
      ['60601', 'IL'],
      ['02108', 'MA'],
      ['73301', 'TX'],
      ['96813', 'HI'],
      ['99501', 'AK'],
      ['20500', 'DC'],
      ['00901', 'PR'],
      ['05401', 'VT'],
    ];
    for (const [zip, state] of known) expect(zipMatchesState(zip, state), `${zip} ${state}`).toBe(true);
    expect(zipMatchesState('10001', 'CA')).toBe(false);
  });
});
