import type { BuyerUser, UserLocation } from '../directory/directory';
import { locationPlanOf, type LocationPlan, type LocationPlans } from '../operations/buyer-locations';

// Location plans remembered instead of made per request. Its plain version, the oracle, is
// FRESH_PLANS (gateway/operations/buyer-locations.ts); remembered-location-plans.test.ts
// proves a remembered plan equals a fresh one. Measured gain: docs/performance.md, "Speed-ups".

// The user's own list (an inquiry about all their locations) is frozen and lives as long as
// the directory's cached user: planned once per list rather than per request.
const plans = new WeakMap<readonly UserLocation[], LocationPlan>();

/** The plan for these locations; for a user's own (frozen) list, the one made the first time. */
function locationPlan(locations: readonly UserLocation[]): LocationPlan {
  if (!Object.isFrozen(locations)) return locationPlanOf(locations, false);
  let plan = plans.get(locations);
  if (plan === undefined) {
    plan = locationPlanOf(locations, true);
    plans.set(locations, plan);
  }
  return plan;
}

/** How many listed subsets are remembered per user before the memory starts again. */
const LISTED_PLANS_PER_USER = 32;
const listedPlans = new WeakMap<BuyerUser, Map<string, LocationPlan>>();

/**
 * The plan for a subset the user lists (the bench's buyer and many real ones list the same few
 * every time), remembered per user object under what was listed: `choose` runs only for a
 * subset not seen before, and returns undefined when it must be judged the slow way.
 */
function listedPlan(
  user: BuyerUser,
  listed: readonly { id: string; member: string; account: string }[],
  choose: () => UserLocation[] | undefined,
): LocationPlan | undefined {
  let key = '';
  // Each part after its length: no two listings share a key, whatever their characters.
  for (const { id, member, account } of listed)
    key += `${id.length}:${id}${member.length}:${member}${account.length}:${account}`;
  let memory = listedPlans.get(user);
  const known = memory?.get(key);
  if (known !== undefined) return known;
  const chosen = choose();
  if (chosen === undefined) return undefined;
  const plan = locationPlanOf(chosen, true);
  if (memory === undefined) listedPlans.set(user, (memory = new Map()));
  else if (memory.size >= LISTED_PLANS_PER_USER) memory.clear();
  memory.set(key, plan);
  return plan;
}

/** The plans the gateway uses: remembered per list and per listing. */
export const REMEMBERED_PLANS: LocationPlans = { of: locationPlan, ofListed: listedPlan };
