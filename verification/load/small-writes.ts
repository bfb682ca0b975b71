import type { SmallWritesHeld } from './load-report';

// A seller whose TCP stack holds small writes: with Nagle's algorithm on (no TCP_NODELAY), a
// reply written in two small pieces (headers, then body) sends the second only once the first
// is acknowledged, and the client's delayed ACK waits ~40 ms (Linux) before acknowledging. One
// request on a fresh connection is fast (the client acknowledges at once while a connection is
// new); every one after it on the kept-alive connection waits the ACK timer. So the sign is in
// figures: replies at concurrency 1 a steady ~40 ms (a narrow spread, not a slow seller's), while
// a lone exchange on a fresh connection, sent after the run only when the step looked so, is fast.

/**
 * The band the median at concurrency 1 must fall in: Linux's delayed-ACK timer (40 ms) and its
 * tick (a reply held this way measured 44–48 ms on loopback with HZ=250).
 */
export const STEADY_MS = { min: 35, max: 50 } as const;
/** Narrow: the 10th and 90th percentiles within this of the band (a spread seller is not this). */
export const SPREAD_MS = 5;
/** The lone exchange must be under this: fast alone, slow only behind the ACK timer. */
export const LONE_MS = 10;
/** Fewer replies than this say nothing steady. */
export const MIN_REPLIES = 20;
/** Lone exchanges sent, each on a fresh connection, once a first step looks steady in the band. */
export const LONE_PROBES = 3;

const quantile = (sorted: Float64Array, q: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
const tenth = (ms: number) => Math.round(ms * 10) / 10;

/** The median of a step's latencies when they sit steadily in the delayed-ACK band (then a lone probe is worth it). */
export function steadyAtAckTimer(latencies: ArrayLike<number>): number | undefined {
  if (latencies.length < MIN_REPLIES) return undefined;
  const sorted = Float64Array.from(latencies).sort();
  const [p10, p50, p90] = [0.1, 0.5, 0.9].map((q) => quantile(sorted, q));
  const steady =
    p50 >= STEADY_MS.min &&
    p50 <= STEADY_MS.max &&
    p10 >= STEADY_MS.min - SPREAD_MS &&
    p90 <= STEADY_MS.max + SPREAD_MS;
  return steady ? tenth(p50) : undefined;
}

/**
 * `latencies`: the run's first step, at concurrency 1; `loneMs`: the fastest of the lone
 * exchanges sent after the run, each on a fresh connection with nothing else in flight. Set when
 * the step sat steadily in the delayed-ACK band and a lone exchange was fast.
 */
export function smallWritesHeld(latencies: ArrayLike<number>, loneMs: number | undefined): SmallWritesHeld | undefined {
  const steady = steadyAtAckTimer(latencies);
  if (steady === undefined || loneMs === undefined || loneMs >= LONE_MS) return undefined;
  return { steady_p50_ms: steady, lone_ms: tenth(loneMs) };
}

const msText = (ms: number) => (ms < 1 ? `${ms} ms` : `${Math.round(ms)} ms`);

/** The note every form of the report prints. */
export function smallWritesNote(held: SmallWritesHeld): string {
  return (
    `replies take a steady ~${Math.round(held.steady_p50_ms)} ms at concurrency 1 while one alone takes ${msText(held.lone_ms)} (on a fresh connection): ` +
    `your server's TCP stack may be holding small writes (Nagle's algorithm against delayed ACK); set TCP_NODELAY on its sockets`
  );
}
