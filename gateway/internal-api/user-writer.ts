import type { Store } from '../store/store';
import { constraintOf, isForeignKeyViolation, isUniqueViolation } from '../store/sql-errors';
import { enqueueMail } from '../mail/outbox';
import type { CheckedUser } from './create-user-checks';
import { CreateUserMessage, CreateUserRejected, type RequestProblem } from './internal-api-errors';
import { welcomeMail } from './welcome-email';

// Writes a checked user: the user row, one row per location and the welcome message, in
// one transaction, so a failure at any step leaves nothing behind. The database's
// constraints are the final word: two concurrent creations of one username or e-mail both
// pass the checks, and the loser's unique violation becomes the specification's 400 here.

/** Constraint names from migration 001 and what each means to the caller. */
const CONSTRAINT_PROBLEMS: Record<string, RequestProblem> = {
  users_username_key: { path: '/username', spec: CreateUserMessage.UsernameTaken },
  users_email_lower_key: { path: '/email', spec: CreateUserMessage.EmailTaken },
  users_catalog_region_id_fkey: {
    path: '/catalog_region_id',
    spec: CreateUserMessage.InvalidCatalogRegion,
    detail: 'the region was removed meanwhile',
  },
  users_member_id_account_id_fkey: { path: '/account_id', detail: 'the account was removed meanwhile' },
  user_locations_location_id_member_id_fkey: {
    path: '/locations',
    spec: CreateUserMessage.InvalidLocations,
    detail: "a location is not (or no longer) at the account's member",
  },
  user_locations_member_id_account_id_fkey: {
    path: '/locations',
    spec: CreateUserMessage.InvalidLocations,
    detail: "the account is not held at the location's member",
  },
  user_locations_pkey: {
    path: '/locations',
    spec: CreateUserMessage.InvalidLocations,
    detail: 'a location is listed twice',
  },
  user_locations_user_id_sort_order_key: {
    path: '/locations',
    spec: CreateUserMessage.InvalidLocations,
    detail: 'a sort_order is used twice',
  },
};

export function constraintProblem(error: unknown): RequestProblem | undefined {
  if (!isUniqueViolation(error) && !isForeignKeyViolation(error)) return undefined;
  const name = constraintOf(error);
  return name === undefined ? undefined : CONSTRAINT_PROBLEMS[name];
}

export async function insertUser(store: Store, user: CheckedUser, now: Date): Promise<number> {
  const { request: r, address } = user;
  try {
    return await store.transaction(async (tx) => {
      const { rows } = await tx.query<{ id: number }>(
        `INSERT INTO users (username, email, first_name, last_name, address, city, state, zip, employee_id,
                            catalog_region_id, account_id, member_id, phone_number, company_name, terminal_pin, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16) RETURNING id`,
        [
          r.username,
          r.email,
          r.first_name,
          r.last_name,
          address.address,
          address.city,
          address.state,
          address.zip,
          r.employee_id,
          r.catalog_region_id,
          r.account_id,
          user.memberId,
          r.phone_number,
          r.company_name,
          r.terminal_pin,
          now,
        ],
      );
      const id = rows[0].id;
      for (const location of r.locations) {
        await tx.query(
          `INSERT INTO user_locations (user_id, location_id, member_id, account_id, can_order, sort_order)
           VALUES ($1, $2, $3, $4, $5, $6)`,
          [id, location.id, user.memberId, r.account_id, location.can_order, location.sort_order],
        );
      }
      // Other gateway processes drop their cached directory when this commits.
      await store.notifyDirectoryChanged?.(tx);
      await enqueueMail(tx, welcomeMail({ id, email: r.email, username: r.username, first_name: r.first_name }), now);
      return id;
    });
  } catch (error) {
    const problem = constraintProblem(error);
    if (problem) throw new CreateUserRejected([problem]);
    throw error;
  }
}
