import type { ItemInquirySellerRequest } from '../../contracts/index';
import type { BuyerUser, UserLocation } from '../directory/directory';
import { isInOrder } from './in-order';

// The user object comes from the directory's cache, so indexing it once per object makes
// location look-ups on the hot path a Map get; a directory reload yields a new object.
const indexes = new WeakMap<BuyerUser, Map<string, UserLocation>>();

export function userLocationIndex(user: BuyerUser): Map<string, UserLocation> {
  let index = indexes.get(user);
  if (index === undefined) {
    index = new Map(user.locations.map((l) => [l.locationId, l]));
    indexes.set(user, index);
  }
  return index;
}

type ForwardedLocation = ItemInquirySellerRequest['locations'][number];

const bySortOrder = (a: UserLocation, b: UserLocation) => a.sortOrder - b.sortOrder;

/** Locations grouped by member, each group in the user's sort order; members in order of first appearance. */
function groupByMember(locations: readonly UserLocation[]): Map<string, UserLocation[]> {
  const groups = new Map<string, UserLocation[]>();
  // A user's own list is sorted already (and frozen): copied only to sort a listed subset.
  for (const location of isInOrder(locations, bySortOrder) ? locations : [...locations].sort(bySortOrder)) {
    const group = groups.get(location.memberId);
    if (group === undefined) groups.set(location.memberId, [location]);
    else group.push(location);
  }
  return groups;
}

/** One member's part of an inquiry: the user's locations there, as forwarded to its seller. */
export interface MemberGroup {
  readonly locations: readonly UserLocation[];
  readonly forwarded: readonly ForwardedLocation[];
}

/** What an inquiry about a set of locations asks: each member's group, every location's id. */
export interface LocationPlan {
  readonly groups: ReadonlyMap<string, MemberGroup>;
  readonly asked: ReadonlySet<string>;
  readonly members: readonly string[];
}

/** The plan for these locations; `shared` freezes what later requests will be handed too. */
function planOf(locations: readonly UserLocation[], shared: boolean): LocationPlan {
  const freeze = shared ? Object.freeze : <T>(value: T) => value;
  const groups = new Map<string, MemberGroup>();
  for (const [memberId, group] of groupByMember(locations)) {
    const forwarded = group.map((l) => freeze({ id: l.locationId, member: l.memberId, account: l.accountId }));
    groups.set(memberId, { locations: freeze(group), forwarded: freeze(forwarded) });
  }
  return { groups, asked: new Set(locations.map((l) => l.locationId)), members: freeze([...groups.keys()]) };
}

// The user's own list (an inquiry about all their locations) is frozen and lives as long as
// the directory's cached user: planned once per list rather than per request.
const plans = new WeakMap<readonly UserLocation[], LocationPlan>();

/** The plan for these locations; for a user's own (frozen) list, the one made the first time. */
export function locationPlan(locations: readonly UserLocation[]): LocationPlan {
  if (!Object.isFrozen(locations)) return planOf(locations, false);
  let plan = plans.get(locations);
  if (plan === undefined) {
    plan = planOf(locations, true);
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
export function listedPlan(
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
  const plan = planOf(chosen, true);
  if (memory === undefined) listedPlans.set(user, (memory = new Map()));
  else if (memory.size >= LISTED_PLANS_PER_USER) memory.clear();
  memory.set(key, plan);
  return plan;
}

/** The accounts a user holds at a member: those of their locations there, plus their primary account. */
export function accountsAt(user: BuyerUser, memberId: string, primaryHeldThere: boolean): Set<string> {
  const accounts = new Set(user.locations.filter((l) => l.memberId === memberId).map((l) => l.accountId));
  if (primaryHeldThere) accounts.add(user.accountId);
  return accounts;
}
