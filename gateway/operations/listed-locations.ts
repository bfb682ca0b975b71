import type { ItemInquiryBuyerRequest } from '../../contracts/index';
import type { BuyerUser, Directory, UserLocation } from '../directory/directory';
import { type Detail, InvalidLocationError, LocationNotAllowedError } from '../errors';
import { userLocationIndex } from './buyer-locations';

// The locations a buyer lists in an item inquiry, judged two ways: without waiting when each is
// the user's own as listed (the usual request), else with every problem reported (which needs
// the directory, to tell a location that does not exist from one that is not theirs). One rule,
// listedLocationRefusal, decides for both, so the fast path never admits what the full one refuses.

export type ListedLocations = NonNullable<ItemInquiryBuyerRequest['locations']>;
type ListedLocation = ListedLocations[number];

type ListedLocationRefusal = 'not-yours' | 'other-member' | 'other-account';

/**
 * Why a listed location cannot be asked about as listed (`mine`
 * is the user's location under its id); undefined when it can.
 */
export function listedLocationRefusal(
  mine: UserLocation | undefined,
  listed: ListedLocation,
): ListedLocationRefusal | undefined {
  if (mine === undefined) return 'not-yours';
  if (mine.memberId !== listed.member) return 'other-member';
  return mine.accountId === listed.account ? undefined : 'other-account';
}

/**
 * The listed locations when each is the user's own, with its member and
 * the user's account there (the usual request); undefined otherwise.
 */
export function ownListedLocations(user: BuyerUser, listed: ListedLocations): UserLocation[] | undefined {
  const index = userLocationIndex(user);
  const chosen = new Map<string, UserLocation>();
  for (const ref of listed) {
    const mine = index.get(ref.id);
    if (listedLocationRefusal(mine, ref) !== undefined) return undefined;
    chosen.set(mine!.locationId, mine!);
  }
  return [...chosen.values()];
}

/**
 * The listed locations, each checked, every problem reported: a
 * location that does not exist, or is not the user's as listed.
 */
export async function listedLocations(
  directory: Pick<Directory, 'findLocation'>,
  user: BuyerUser,
  listed: ListedLocations,
): Promise<UserLocation[]> {
  const index = userLocationIndex(user);
  const chosen = new Map<string, UserLocation>();
  const notFound: Detail[] = [];
  const notAllowed: Detail[] = [];
  for (const [i, ref] of listed.entries()) {
    const mine = index.get(ref.id);
    switch (listedLocationRefusal(mine, ref)) {
      case 'not-yours':
        if ((await directory.findLocation(ref.id)) === undefined)
          notFound.push({ path: `/locations/${i}/id`, message: `location '${ref.id}' does not exist` });
        else
          notAllowed.push({ path: `/locations/${i}/id`, message: `location '${ref.id}' is not one of your locations` });
        break;
      case 'other-member':
        notAllowed.push({
          path: `/locations/${i}/member`,
          message: `location '${ref.id}' belongs to member '${mine!.memberId}', not '${ref.member}'`,
          expected: mine!.memberId,
          found: ref.member,
        });
        break;
      case 'other-account':
        notAllowed.push({
          path: `/locations/${i}/account`,
          message: `your account at location '${ref.id}' is '${mine!.accountId}', not '${ref.account}'`,
          expected: mine!.accountId,
          found: ref.account,
        });
        break;
      case undefined:
        chosen.set(mine!.locationId, mine!);
    }
  }
  if (notFound.length > 0)
    throw new InvalidLocationError(notFound.map((d) => d.message).join('; '), [...notFound, ...notAllowed]);
  if (notAllowed.length > 0) throw new LocationNotAllowedError(notAllowed.map((d) => d.message).join('; '), notAllowed);
  return [...chosen.values()];
}
