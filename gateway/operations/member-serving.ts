import type { Member, MemberStatus } from '../directory/directory';
import { type Detail, MemberNotServingError } from '../errors';
import type { LocationPlan, MemberGroup } from './buyer-locations';
import { memberOf } from './seller-member';
import type { OperationDeps } from './operation-deps';

// Only a live member serves buyers: a pending one (not yet certified) or a suspended one is
// refused before any seller call, naming what the buyer sent that reached it (3110, 403, rule
// member.not-live; docs/gateway/members.md). On the hot path this is one field check on the
// cached member.

export const MEMBER_NOT_LIVE_RULE = 'member.not-live';

const WHY: Record<Exclude<MemberStatus, 'live'>, string> = {
  pending: 'is pending (not yet certified): it serves no buyer yet',
  suspended: 'is suspended: it serves no buyer',
};

/** Why `member` serves no buyer, as the end of a sentence naming it. */
export const notServingReason = (member: Member): string =>
  WHY[member.status as Exclude<MemberStatus, 'live'>] ?? `is ${member.status}`;

/** One detail naming the field that reached a member that is not live (`what` it named, when not the member). */
export function notServingDetail(member: Member, path: string, what?: string): Detail {
  return {
    path,
    message:
      what === undefined
        ? `member '${member.id}' ${notServingReason(member)}`
        : `${what} is at member '${member.id}', which ${notServingReason(member)}`,
    rule: MEMBER_NOT_LIVE_RULE,
    member: member.id,
    found: member.status,
  };
}

export function notServing(member: Member, details: Detail[]): MemberNotServingError {
  return new MemberNotServingError(`member '${member.id}' ${notServingReason(member)}`, details);
}

/**
 * The plan with only live members' groups. Locations the buyer listed that reach a member that is
 * not live are refused; without a list ("all available locations"), such members are left out,
 * and a buyer left with none is refused. Without waiting when every member is in memory.
 */
export function servingPlan(
  deps: Pick<OperationDeps, 'directory'>,
  plan: LocationPlan,
  listed: readonly { id: string }[] | undefined,
): LocationPlan | Promise<LocationPlan> {
  // The usual request: every member in memory and live, nothing allocated.
  let notLive: Member[] | undefined;
  for (const id of plan.members) {
    const member = memberOf(deps, id);
    if (member instanceof Promise)
      return Promise.all(plan.members.map((m) => memberOf(deps, m))).then((members) =>
        decide(
          plan,
          members.filter((m) => m.status !== 'live'),
          listed,
        ),
      );
    if (member.status !== 'live') (notLive ??= []).push(member);
  }
  return notLive === undefined ? plan : decide(plan, notLive, listed);
}

function decide(plan: LocationPlan, notLive: Member[], listed: readonly { id: string }[] | undefined): LocationPlan {
  if (notLive.length === 0) return plan;
  const memberAt = new Map<string, Member>();
  for (const member of notLive)
    for (const location of plan.groups.get(member.id)!.locations) memberAt.set(location.locationId, member);
  if (listed !== undefined) {
    const details = listed.flatMap((ref, i) => {
      const member = memberAt.get(ref.id);
      return member === undefined ? [] : [notServingDetail(member, `/locations/${i}/id`, `location '${ref.id}'`)];
    });
    throw notServing(notLive[0], details);
  }
  const groups = new Map<string, MemberGroup>();
  for (const [memberId, group] of plan.groups) if (!notLive.some((m) => m.id === memberId)) groups.set(memberId, group);
  if (groups.size === 0) {
    throw new MemberNotServingError(
      `none of your locations is available: ${notLive.map((m) => `member '${m.id}' ${notServingReason(m)}`).join('; ')}`,
      notLive.map((m) => ({
        ...notServingDetail(m, ''),
        message: `your locations at member '${m.id}' (${plan.groups
          .get(m.id)!
          .locations.map((l) => l.locationId)
          .join(', ')}) are not available: it ${notServingReason(m)}`,
      })),
    );
  }
  const asked = new Set([...plan.asked].filter((id) => !memberAt.has(id)));
  return { groups, asked, members: [...groups.keys()] };
}
