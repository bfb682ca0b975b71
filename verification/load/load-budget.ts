import type { LoadModel } from './load-report';

// The bounds of a run. The default bound on requests, sized from the steps so that a default run measures every
// step it announces. The open model sends exactly rate × seconds. The closed model's rate is
// the seller's: the bound allows 10,000 exchanges/s per request in flight up to 30,000/s a step
// — above the fastest seller here (the mock seller, ~4,800/s at concurrency 1) and the
// driver's own ceiling on one core (~18,000–23,000/s, npm run -w lab bench:load).

const CLOSED_PER_CONNECTION_PER_S = 10_000;
const CLOSED_CEILING_PER_S = 30_000;

export function defaultMaxRequests(model: LoadModel, levels: number[], stepSeconds: number): number {
  let total = 0;
  for (const level of levels)
    total +=
      model === 'open'
        ? Math.ceil(level * stepSeconds)
        : Math.ceil(Math.min(level * CLOSED_PER_CONNECTION_PER_S, CLOSED_CEILING_PER_S) * stepSeconds);
  return total;
}

/**
 * The open model's default in-flight cap: the gateway's per-member
 * cap (GATEWAY_MEMBER_CONCURRENCY), past which it refuses a call.
 */
export const DEFAULT_MAX_IN_FLIGHT = 64;

/** The closed model's steps when none are given: 1 up to the gateway's per-member cap. */
export const DEFAULT_CONCURRENCIES: readonly number[] = [1, 2, 4, 8, 16, 32, 64];

/** The open model's rates: above the driver's reach, a schedule means nothing. */
export const MAX_RATE = 100_000;
