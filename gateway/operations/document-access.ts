import type { BuyerUser } from '../directory/directory';
import { AccessDeniedError, RequestValidationError } from '../errors';
import { accountsAt } from './buyer-locations';
import type { OperationDeps } from './operation-deps';

// Invoices and statements: which member and account a buyer may read. A buyer reaches only
// members where they hold locations, only accounts they hold there, only their own locations.

export interface DocumentAccess {
  memberId: string;
  accountId: string;
}

async function primaryHeldAt(deps: OperationDeps, user: BuyerUser, memberId: string): Promise<boolean> {
  return (await deps.directory.findAccount(memberId, user.accountId)) !== undefined;
}

async function membersHolding(deps: OperationDeps, user: BuyerUser, account: string): Promise<string[]> {
  const members = [...new Set(user.locations.map((l) => l.memberId))];
  const holding: string[] = [];
  for (const memberId of members) {
    if (accountsAt(user, memberId, await primaryHeldAt(deps, user, memberId)).has(account)) holding.push(memberId);
  }
  return holding;
}

export async function resolveDocumentAccess(
  deps: OperationDeps,
  user: BuyerUser,
  asked: { member?: string; account?: string; locationId?: string },
): Promise<DocumentAccess> {
  let memberId = asked.member;
  if (memberId === undefined) {
    // Statements may leave the member out: the account tells which one.
    const holding = await membersHolding(deps, user, asked.account as string);
    if (holding.length === 0)
      throw new AccessDeniedError(`account '${asked.account}' is not one of your accounts`, [
        { path: '/account', message: 'not one of your accounts' },
      ]);
    if (holding.length > 1) {
      throw new RequestValidationError(
        `account '${asked.account}' is held at several members (${holding.join(', ')}): name the member`,
        [{ path: '/member', message: `one of ${holding.join(', ')}` }],
      );
    }
    memberId = holding[0];
  }
  if (!user.locations.some((l) => l.memberId === memberId)) {
    throw new AccessDeniedError(`member '${memberId}' is not one of your members`, [
      { path: '/member', message: 'you hold no location at this member' },
    ]);
  }
  const accounts = accountsAt(user, memberId, await primaryHeldAt(deps, user, memberId));
  // The default account: the one at the buyer's first location there (locations are in sort order).
  const accountId = asked.account ?? user.locations.find((l) => l.memberId === memberId)!.accountId;
  if (!accounts.has(accountId)) {
    throw new AccessDeniedError(`account '${accountId}' is not one of your accounts at member '${memberId}'`, [
      { path: '/account', message: `your accounts there: ${[...accounts].join(', ')}` },
    ]);
  }
  if (
    asked.locationId !== undefined &&
    !user.locations.some((l) => l.locationId === asked.locationId && l.memberId === memberId)
  ) {
    throw new AccessDeniedError(`location '${asked.locationId}' is not one of your locations at member '${memberId}'`, [
      { path: '/location_id', message: 'not one of your locations at this member' },
    ]);
  }
  return { memberId, accountId };
}
