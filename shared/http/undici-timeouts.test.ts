import { Pool } from 'undici';
import { expect, it } from 'vitest';
import { undiciTimeoutsFor } from './undici-timeouts';

// The rule, not the means: whether off (0) or later than the deadline, neither of undici's
// timeouts may end an exchange before the caller's own deadline — above all past undici's
// 300 s default (verify --load allows 600 s, verify --explore an hour, a member any timeout_ms).

const UNDICI_DEFAULT_MS = 300_000;
const DEADLINES = [1, 900, UNDICI_DEFAULT_MS - 1, UNDICI_DEFAULT_MS, 400_000, 600_000, 3_600_000, 2 ** 31 - 1];

it.each(DEADLINES)('no undici timeout fires before a deadline of %i ms', (deadlineMs) => {
  const timeouts = undiciTimeoutsFor(deadlineMs);
  for (const value of [timeouts.headersTimeout, timeouts.bodyTimeout])
    expect(value === 0 || value >= deadlineMs, `${value}`).toBe(true);
});

it('gives options undici takes as they are (integers, 0 = off)', async () => {
  const pool = new Pool('http://127.0.0.1:9', undiciTimeoutsFor(400_000));
  await pool.close();
});

it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY])(
  'refuses a deadline of %s: undici keeps its clocks when the caller has none',
  (deadlineMs) => {
    expect(() => undiciTimeoutsFor(deadlineMs)).toThrow(RangeError);
  },
);
