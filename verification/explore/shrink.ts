import fc from 'fast-check';
import type { ExploreCase } from './generators';
import { exchange, type Finding, type SellerTarget } from './exchange';
import type { ExploreRule } from './rule-coverage';

// A failure made small: fast-check replays the failing run from the same seed (its `path`)
// and shrinks it, keeping only smaller requests that still break the SAME rule; then, if more
// than one item or order line is left, each alone is tried, and then each location alone. Every candidate is a real
// exchange with the seller, so shrinking has a budget of exchanges.

export interface Shrunk {
  request: ExploreCase;
  finding: Finding;
  /** Exchanges spent shrinking. */
  tries: number;
}

const DEFAULT_BUDGET = 400;
/** A slow seller must not hold the report back for long: shrinking stops accepting after this. */
const DEFAULT_SHRINK_MS = 60_000;

async function breaking(
  target: SellerTarget,
  c: ExploreCase,
  rule: ExploreRule,
  signal?: AbortSignal,
): Promise<Finding | undefined> {
  const outcome = await exchange(target, c, signal);
  if (signal?.aborted) return undefined;
  return outcome.findings.find((f) => f.rule === rule);
}

/** Each item (order line) alone, when there are several: the smallest requests of all. */
function singleItems(c: ExploreCase): ExploreCase[] {
  if (c.operation === 'item-inquiry' && c.request.items.length > 1)
    return c.request.items.map((item) => ({ ...c, request: { ...c.request, items: [item] } }));
  if (c.operation === 'place-order' && c.request.items.length > 1)
    return c.request.items.map((item) => ({ ...c, request: { ...c.request, items: [item] } }));
  return [];
}

/** Each forwarded location alone (fast-check shrinks them poorly: they are drawn first, per member). */
function singleLocations(c: ExploreCase): ExploreCase[] {
  if (c.operation === 'item-inquiry' && c.request.locations.length > 1)
    return c.request.locations.map((location) => ({ ...c, request: { ...c.request, locations: [location] } }));
  return [];
}

export async function shrinkFailure(options: {
  target: SellerTarget;
  arbitrary: fc.Arbitrary<ExploreCase>;
  seed: number;
  /** 0-based index of the failing run among those generated from `seed`. */
  index: number;
  rule: ExploreRule;
  original: ExploreCase;
  finding: Finding;
  budget?: number;
  timeLimitMs?: number;
  signal?: AbortSignal;
}): Promise<Shrunk> {
  const { target, rule, signal } = options;
  const budget = options.budget ?? DEFAULT_BUDGET;
  const until = performance.now() + (options.timeLimitMs ?? DEFAULT_SHRINK_MS);
  const spent = () => tries >= budget || performance.now() > until || signal?.aborted === true;
  let tries = 0;
  let best: Shrunk = { request: options.original, finding: options.finding, tries: 0 };
  const property = fc.asyncProperty(options.arbitrary, async (c) => {
    if (spent()) return true; // out of budget: no candidate is accepted any more
    tries++;
    const finding = await breaking(target, c, rule, signal);
    if (finding === undefined) return true;
    best = { request: c, finding, tries };
    return false;
  });
  await fc.check(property, { seed: options.seed, path: String(options.index), numRuns: 1, endOnFailure: false });
  for (const smaller of [singleItems, singleLocations]) {
    for (const candidate of smaller(best.request)) {
      if (spent()) break;
      tries++;
      const finding = await breaking(target, candidate, rule, signal);
      if (finding !== undefined) {
        best = { request: candidate, finding, tries };
        break;
      }
    }
  }
  return { ...best, tries };
}
