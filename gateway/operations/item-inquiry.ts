import {
  itemInquiryRequestRules,
  OverallStatus,
  type ItemInquiryBuyerReply,
  type ItemInquiryBuyerRequest,
  type ItemInquirySellerReply,
  type ItemInquirySellerRequest,
} from '../../contracts/index';
import type { Member } from '../directory/directory';
import { type Detail, GatewayError, LocationNotAllowedError, RequestValidationError } from '../errors';
import { validBuyerRequest } from './buyer-request';
import { locationPlan, userLocationIndex, type LocationPlan, type MemberGroup } from './buyer-locations';
import { listedLocations, ownListedLocations } from './listed-locations';
import { forwardToSeller, warningLines, type CheckedReply } from './forward';
import { forwardedCommon, memberOf } from './seller-member';
import { servingPlan } from './member-serving';
import type { OperationDeps, OperationInput, OperationResult } from './operation-deps';

// Item inquiry: the buyer's locations (all, or the listed subset), one forwarded request per
// member, concurrently; every reply checked; one merged answer with the buyer's own view of
// each location (description, can_order, sort_order), sorted by sort_order (item-merge.ts).

/** The plan of the locations to ask about: all of the user's (without waiting), or exactly the listed ones. */
function resolvePlan(
  deps: OperationDeps,
  input: OperationInput,
  request: ItemInquiryBuyerRequest,
): LocationPlan | Promise<LocationPlan> {
  const user = input.buyer.user;
  const listed = request.locations;
  if (listed === undefined) {
    if (user.locations.length === 0)
      throw new LocationNotAllowedError(`user '${user.username}' has no locations to ask about`);
    return locationPlan(user.locations);
  }
  if (listed.length === 0) {
    // An empty subset would ask no seller and answer no item: surely not what the buyer meant.
    throw new RequestValidationError(
      'locations is empty: leave it out to ask about all your locations, or list at least one',
      [{ path: '/locations', message: 'must not be empty when present' }],
    );
  }
  // The user's own locations, as listed, without a store read; the directory judges any other listing.
  const own = ownListedLocations(user, listed);
  return own !== undefined ? locationPlan(own) : listedLocations(deps.directory, user, listed).then(locationPlan);
}

/** One member's seller, asked about the items at the user's locations there. */
function askMember(
  deps: OperationDeps,
  input: OperationInput,
  request: ItemInquiryBuyerRequest,
  memberId: string,
  group: MemberGroup,
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
  group: MemberGroup,
): Promise<CheckedReply<ItemInquirySellerReply>> {
  const forwarded: ItemInquirySellerRequest = {
    service: 'item_inquiry',
    ...forwardedCommon(member, input.buyer.user.terminalPin),
    locations: group.forwarded as ItemInquirySellerRequest['locations'],
    items: request.items,
  };
  return forwardToSeller<ItemInquirySellerReply>(deps, 'item-inquiry', member, forwarded, input);
}

export function createItemInquiry(deps: OperationDeps) {
  return async function itemInquiry(input: OperationInput): Promise<OperationResult> {
    const request = validBuyerRequest<ItemInquiryBuyerRequest>('item-inquiry', input.body, itemInquiryRequestRules);
    const user = input.buyer.user;
    const planning = resolvePlan(deps, input, request);
    const serving = servingPlan(deps, planning instanceof Promise ? await planning : planning, request.locations);
    const { groups, asked, members } = serving instanceof Promise ? await serving : serving;

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

    const status =
      replies.find((r) => r.reply.status_code !== OverallStatus.Success)?.reply.status_code ?? OverallStatus.Success;
    const reply: ItemInquiryBuyerReply = {
      status_code: status,
      items: deps.speedups.mergeReplies(request, replies, userLocationIndex(user), asked),
    };
    return {
      httpStatus: 200,
      reply,
      warnings: replies.flatMap((r) => warningLines(r.member, r.warnings)),
      log: { members },
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
