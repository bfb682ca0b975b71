import { describe, expect, it } from 'vitest';
import { failedAttempts } from './failed-attempts';

describe('failedAttempts', () => {
  it('blocks an address at its limit until the window ends, then forgets it', () => {
    let now = 120_000 + 10_000; // 10 s into a minute
    const attempts = failedAttempts({ limit: 2, windowMs: 60_000, clock: () => now });
    attempts.failed('a');
    expect(attempts.blockedFor('a')).toBe(0);
    attempts.failed('a');
    expect(attempts.blockedFor('a')).toBe(50);
    expect(attempts.blockedFor('b')).toBe(0);
    now += 49_500;
    expect(attempts.blockedFor('a')).toBe(1);
    now += 500; // the next window: the count was the past one's
    expect(attempts.blockedFor('a')).toBe(0);
  });

  it('counts at most maxAddresses at once: new ones past it go uncounted, known ones still count', () => {
    const attempts = failedAttempts({ limit: 1, windowMs: 60_000, clock: () => 0, maxAddresses: 2 });
    for (const address of ['a', 'b', 'c']) attempts.failed(address);
    expect(['a', 'b', 'c'].map((address) => attempts.blockedFor(address))).toEqual([60, 60, 0]);
  });

  it('refuses a limit that is not a whole number above 0', () => {
    expect(() => failedAttempts({ limit: 0, windowMs: 60_000, clock: () => 0 })).toThrow(/limit/);
  });
});
