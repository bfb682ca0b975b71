import {
  itemInquiryRequestRules,
  OverallStatus,
  REQUESTED_PART_STATUSES,
  type BuyerItemLocation,
  type BuyerItemResult,
  type ItemInquiryBuyerReply,
  type ItemInquiryBuyerRequest,
  type ItemInquirySellerReply,
  type ItemInquirySellerRequest,
} from '../../contracts/index';
import type { Member, UserLocation } from '../directory/directory';
import { type Detail, GatewayError, LocationNotAllowedError, RequestValidationError } from '../errors';
import { validBuyerRequest } from './buyer-request';
import { groupByMember, userLocationIndex } from './buyer-locations';
import { listedLocations, ownListedLocations } from './listed-locations';
import { forwardToSeller, warningLines, type CheckedReply } from './forward';
import { sortUnlessInOrder } from './in-order';
import { forwardedCommon, memberOf } from './seller-member';
import type { OperationDeps, OperationInput, OperationResult } from './operation-deps';

// Item inquiry: the buyer's locations (all, or the listed subset), one forwarded request per
// member, concurrently; every reply checked; one merged answer with the buyer's own view of
// each location (description, can_order, sort_order), sorted by sort_order.

type SellerItem = ItemInquirySellerReply['items'][number];

/** The locations to ask about: all of the user's (without waiting), or exactly the listed ones, each checked. */
function resolveLocations(
  deps: OperationDeps,
  input: OperationInput,
  request: ItemInquiryBuyerRequest,
): UserLocation[] | Promise<UserLocation[]> {
  const user = input.buyer.user;
  if (request.locations === undefined) {
    if (user.locations.length === 0)
      throw new LocationNotAllowedError(`user '${user.username}' has no locations to ask about`);
    return user.locations;
  }
  if (request.locations.length === 0) {
    // An empty subset would ask no seller and answer no item: surely not what the buyer meant.
    throw new RequestValidationError(
      'locations is empty: leave it out to ask about all your locations, or list at least one',
      [{ path: '/locations', message: 'must not be empty when present' }],
    );
  }
  return ownListedLocations(user, request.locations) ?? listedLocations(deps.directory, user, request.locations);
}

const isRequestedPart = (item: SellerItem) => REQUESTED_PART_STATUSES.includes(item.status_code);
const mergeKey = (item: SellerItem) =>
  isRequestedPart(item)
    ? `${item.id}\u0000`
    : `${item.id}\u0000${item.status_code}\u0000${item.mfr_code}\u0000${item.part_number}`;

/**
 * One entry per requested part (and per alternate), with the locations of every member
 * merged. The seller replies were parsed for this request alone, so they are enriched and
 * merged in place: no copies on the hot path.
 */
function merge(
  request: ItemInquiryBuyerRequest,
  replies: CheckedReply<ItemInquirySellerReply>[],
  index: Map<string, UserLocation>,
  asked: Set<string>,
): BuyerItemResult[] {
  const entries = new Map<string, SellerItem>();
  for (const { reply } of replies) {
    for (const item of reply.items) {
      enrich(item.locations, index, asked);
      const key = mergeKey(item);
      const seen = entries.get(key);
      if (seen === undefined) {
        entries.set(key, item);
      } else if (seen.status_code === 0 && item.status_code !== 0) {
        // The same part from another member: a "found" beats "not found"; locations join.
        item.locations = [...seen.locations, ...item.locations];
        entries.set(key, item);
      } else {
        seen.locations.push(...item.locations);
      }
    }
  }
  const order = new Map(request.items.map((item, i) => [item.id, i]));
  const merged = [...entries.values()] as BuyerItemResult[];
  for (const entry of merged) if (entry.locations.length > 1) sortUnlessInOrder(entry.locations, bySortOrder);
  // Request order; within one id the requested part first, alternates after (stable sort).
  return sortUnlessInOrder(
    merged,
    (a, b) =>
      (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0) ||
      Number(!isRequestedPart(a as SellerItem)) - Number(!isRequestedPart(b as SellerItem)),
  );
}

const bySortOrder = (a: BuyerItemLocation, b: BuyerItemLocation) => (a.sort_order ?? 0) - (b.sort_order ?? 0);

/** Adds the buyer's view to each location and drops any that was not forwarded (a lenient member's slip). */
function enrich(locations: SellerItem['locations'], index: Map<string, UserLocation>, asked: Set<string>): void {
  let kept = 0;
  for (let i = 0; i < locations.length; i++) {
    const location = locations[i] as BuyerItemLocation;
    const mine = index.get(location.id);
    if (mine === undefined || !asked.has(location.id)) continue;
    if (location.type === undefined) location.type = mine.type;
    location.description = mine.description;
    location.can_order = mine.canOrder;
    location.sort_order = mine.sortOrder;
    locations[kept++] = location;
  }
  locations.length = kept;
}

/** One member's seller, asked about the items at the user's locations there. */
function askMember(
  deps: OperationDeps,
  input: OperationInput,
  request: ItemInquiryBuyerRequest,
  memberId: string,
  group: UserLocation[],
): Promise<CheckedReply<ItemInquirySellerReply>> {
  try {
    const found = memberOf(deps, memberId);
    if (found instanceof Promise) return found.then((member) => askSeller(deps, input, request, member, group));
    return askSeller(deps, input, request, found, group);
  } catch (error) {
    return Promise.reject(error);
  }
}

function askSeller(
  deps: OperationDeps,
  input: OperationInput,
  request: ItemInquiryBuyerRequest,
  member: Member,
  group: UserLocation[],
): Promise<CheckedReply<ItemInquirySellerReply>> {
  const forwarded: ItemInquirySellerRequest = {
    service: 'item_inquiry',
    ...forwardedCommon(member, input.buyer.user.terminalPin),
    locations: group.map((l) => ({ id: l.locationId, member: l.memberId, account: l.accountId })),
    items: request.items,
  };
  return forwardToSeller<ItemInquirySellerReply>(deps, 'item-inquiry', member, forwarded, input);
}

export function createItemInquiry(deps: OperationDeps) {
  return async function itemInquiry(input: OperationInput): Promise<OperationResult> {
    const request = validBuyerRequest<ItemInquiryBuyerRequest>('item-inquiry', input.body, itemInquiryRequestRules);
    const user = input.buyer.user;
    const resolving = resolveLocations(deps, input, request);
    const locations = resolving instanceof Promise ? await resolving : resolving;
    const groups = groupByMember(locations);

    let replies: CheckedReply<ItemInquirySellerReply>[];
    if (groups.size === 1) {
      // One member (the usual buyer): its failure is the inquiry's, nothing to settle together.
      const [memberId, group] = groups.entries().next().value!;
      replies = [await askMember(deps, input, request, memberId, group)];
    } else {
      const settled = await Promise.allSettled(
        [...groups].map(([memberId, group]) => askMember(deps, input, request, memberId, group)),
      );
      const failures = settled.flatMap((s) => (s.status === 'rejected' ? [s.reason as unknown] : []));
      if (failures.length > 0) throw firstFailure(failures);
      replies = settled.map((s) => (s as PromiseFulfilledResult<CheckedReply<ItemInquirySellerReply>>).value);
    }

    const asked = new Set(locations.map((l) => l.locationId));
    const status =
      replies.find((r) => r.reply.status_code !== OverallStatus.Success)?.reply.status_code ?? OverallStatus.Success;
    const reply: ItemInquiryBuyerReply = {
      status_code: status,
      items: merge(request, replies, userLocationIndex(user), asked),
    };
    return {
      httpStatus: 200,
      reply,
      warnings: replies.flatMap((r) => warningLines(r.member, r.warnings)),
      log: { members: [...groups.keys()] },
    };
  };
}

/**
 * A merged answer with a member missing would look complete to the buyer, so any member's
 * failure fails the inquiry; the first failure decides the code, the others join its details.
 */
function firstFailure(failures: unknown[]): unknown {
  const [first, ...rest] = failures;
  if (!(first instanceof GatewayError) || rest.length === 0) return first;
  const extra: Detail[] = rest.flatMap((f) =>
    f instanceof GatewayError ? (f.details ?? [{ path: '', message: f.message }]) : [],
  );
  return first.restated(first.message, { details: [...(first.details ?? []), ...extra] });
}
