import { describe, expect, it } from 'vitest';
import { smallWritesHeld, smallWritesNote, steadyAtAckTimer } from './small-writes';

// The detector on numbers written out, never on a clock: a steady ~40 ms at concurrency 1 while a
// lone exchange is fast is held small writes; a seller merely slow, spread, or slow alone too is not.

/** `n` replies from `around` with a spread of ±`spread` ms. */
const step = (around: number, spread: number, n = 200) =>
  Array.from({ length: n }, (_, k) => around - spread + (2 * spread * k) / (n - 1));

describe('smallWritesHeld', () => {
  it('a steady ~40 ms behind a fast lone exchange: held, with both figures', () => {
    expect(smallWritesHeld(step(44, 2), 2.04)).toEqual({ steady_p50_ms: 44, lone_ms: 2 });
    // The edges of the band: 35 and 50 ms at the median, 30 and 55 at the 10th and 90th percentiles.
    expect(smallWritesHeld(step(35, 0), 9.9)).toBeDefined();
    expect(smallWritesHeld(step(50, 0), 0.4)).toEqual({ steady_p50_ms: 50, lone_ms: 0.4 });
    expect(smallWritesHeld(step(42, 6), 1)).toBeDefined();
    expect(steadyAtAckTimer(step(44, 2))).toBe(44);
  });

  it('not held: the median outside 35–50 ms, a spread too wide, the lone exchange slow, or too few replies', () => {
    expect(smallWritesHeld(step(34.9, 1), 2)).toBeUndefined();
    expect(smallWritesHeld(step(50.1, 1), 2)).toBeUndefined();
    expect(smallWritesHeld(step(42, 20), 2)).toBeUndefined(); // a slow seller, 22–62 ms
    expect(smallWritesHeld(step(44, 1), 10)).toBeUndefined(); // slow alone too: its own service time
    expect(smallWritesHeld(step(44, 1), undefined)).toBeUndefined(); // no lone exchange answered
    expect(smallWritesHeld(step(44, 1, 19), 2)).toBeUndefined();
    expect(steadyAtAckTimer(step(3, 1))).toBeUndefined(); // a fast seller: no probe is sent
  });

  it('says it in the vendor’s terms', () => {
    expect(smallWritesNote({ steady_p50_ms: 40.2, lone_ms: 2.1 })).toBe(
      'replies take a steady ~40 ms at concurrency 1 while one alone takes 2 ms (on a fresh connection): ' +
        "your server's TCP stack may be holding small writes (Nagle's algorithm against delayed ACK); set TCP_NODELAY on its sockets",
    );
    expect(smallWritesNote({ steady_p50_ms: 40, lone_ms: 0.4 })).toContain('one alone takes 0.4 ms');
  });
});
