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

/** The plan for these locations: each member's group, in the user's sort order, and what its seller is sent. */
export function locationPlan(locations: readonly UserLocation[]): LocationPlan {
  const groups = new Map<string, MemberGroup>();
  for (const [memberId, group] of groupByMember(locations)) {
    const forwarded = group.map((l) => ({ id: l.locationId, member: l.memberId, account: l.accountId }));
    groups.set(memberId, { locations: group, forwarded });
  }
  return { groups, asked: new Set(locations.map((l) => l.locationId)), members: [...groups.keys()] };
}

/** The accounts a user holds at a member: those of their locations there, plus their primary account. */
export function accountsAt(user: BuyerUser, memberId: string, primaryHeldThere: boolean): Set<string> {
  const accounts = new Set(user.locations.filter((l) => l.memberId === memberId).map((l) => l.accountId));
  if (primaryHeldThere) accounts.add(user.accountId);
  return accounts;
}
