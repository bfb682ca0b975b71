import { exchange, type SellerTarget } from './exchange';
import type { ExploreCase } from './generators';
import type { ExploreRule } from './rule-coverage';

// A failure seen under concurrency, re-sent alone: does it fail alone too? A seller with a
// shared-state bug answers the lone request correctly, and a lone curl command would pass —
// so the report must say so instead of handing the vendor a command that shows nothing.

/** Lone re-sends before a failure is called "only under concurrency". */
export const ALONE_TRIES = 3;

/** true: it broke `rule` again alone; false: every lone try was correct; undefined: stopped. */
export async function reproducesAlone(
  target: SellerTarget,
  c: ExploreCase,
  rule: ExploreRule,
  tries: number,
  signal?: AbortSignal,
): Promise<boolean | undefined> {
  for (let i = 0; i < tries; i++) {
    const outcome = await exchange(target, c, signal);
    if (signal?.aborted) return undefined;
    if (outcome.findings.some((f) => f.rule === rule)) return true;
  }
  return false;
}
