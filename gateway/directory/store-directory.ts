// The directory read straight from the store, one query per look-up, no caching.
// createDirectory wraps it in a cache; this is what the cache loads from.
import type { Queryable } from '../store/store';
import type {
  Account,
  AccountStanding,
  ApiKey,
  BuyerUser,
  KeyAlgorithm,
  Location,
  Member,
  MemberStatus,
  SellerAuth,
} from './directory';

export type DirectoryReader = Omit<import('./directory').Directory, 'invalidate'>;

/** A members row as the directory reads it; the member writer reads these columns and a few more. */
export interface MemberRow {
  id: string;
  name: string;
  seller_url: string;
  seller_auth_kind: SellerAuth['kind'];
  seller_auth_token: string | null;
  seller_auth_username: string | null;
  seller_auth_password: string | null;
  integration: string | null;
  timeout_ms: number;
  reply_mode: 'strict' | 'lenient';
  status: MemberStatus;
}

export const MEMBER_COLUMNS = `id, name, seller_url, seller_auth_kind, seller_auth_token, seller_auth_username,
  seller_auth_password, integration, timeout_ms, reply_mode, status`;

function sellerAuth(row: MemberRow): SellerAuth {
  switch (row.seller_auth_kind) {
    case 'bearer':
      return { kind: 'bearer', token: row.seller_auth_token ?? '' };
    case 'basic':
      return { kind: 'basic', username: row.seller_auth_username ?? '', password: row.seller_auth_password ?? '' };
    default:
      return { kind: 'none' };
  }
}

/** The store always holds a reply mode, so the member read back has one. */
export const memberOf = (row: MemberRow): Required<Member> => ({
  id: row.id,
  name: row.name,
  sellerUrl: row.seller_url,
  sellerAuth: sellerAuth(row),
  integration: row.integration,
  timeoutMs: row.timeout_ms,
  replyMode: row.reply_mode,
  status: row.status,
});

export function storeDirectory(db: Queryable): DirectoryReader {
  return {
    findKey: (kid) => findKey(db, kid),
    linkedUsernames: (clientId) => linkedUsernames(db, clientId),
    findUser: (username) => findUser(db, username),
    findLocation: (id) => findLocation(db, id),
    findMember: (id) => findMember(db, id),
    findAccount: (memberId, accountId) => findAccount(db, memberId, accountId),
  };
}

async function findKey(db: Queryable, kid: string): Promise<ApiKey | undefined> {
  const { rows } = await db.query<{
    kid: string;
    client_id: string;
    algorithm: KeyAlgorithm;
    public_key_pem: string;
    active: boolean;
  }>('SELECT kid, client_id, algorithm, public_key_pem, active FROM api_keys WHERE kid = $1', [kid]);
  const row = rows[0];
  return row
    ? {
        kid: row.kid,
        clientId: row.client_id,
        algorithm: row.algorithm,
        publicKeyPem: row.public_key_pem,
        active: row.active,
      }
    : undefined;
}

async function linkedUsernames(db: Queryable, clientId: string): Promise<string[]> {
  const { rows } = await db.query<{ username: string }>(
    `SELECT u.username FROM api_client_users cu JOIN users u ON u.id = cu.user_id
     WHERE cu.client_id = $1 ORDER BY u.username`,
    [clientId],
  );
  return rows.map((r) => r.username);
}

/**
 * A user joined with each of their locations (left joins: a user
 * without locations comes back once, location columns null).
 */
interface UserLocationRow {
  id: number;
  username: string;
  email: string;
  terminal_pin: string | null;
  account_id: string;
  location_id: string | null;
  member_id: string | null;
  location_account_id: string | null;
  description: string | null;
  type: number | null;
  can_order: boolean | null;
  sort_order: number | null;
}

async function findUser(db: Queryable, username: string): Promise<BuyerUser | undefined> {
  // One round trip: the user and its locations.
  const { rows } = await db.query<UserLocationRow>(
    `SELECT u.id, u.username, u.email, u.terminal_pin, u.account_id,
            ul.location_id, ul.member_id, ul.account_id AS location_account_id,
            l.description, l.type, ul.can_order, ul.sort_order
     FROM users u
     LEFT JOIN user_locations ul ON ul.user_id = u.id
     LEFT JOIN locations l ON l.id = ul.location_id
     WHERE u.username = $1
     ORDER BY ul.sort_order`,
    [username],
  );
  return rows.length === 0 ? undefined : userOf(rows);
}

/** The user of the first row, with the locations of every row that has one (already in sort order). */
function userOf(rows: UserLocationRow[]): BuyerUser {
  const first = rows[0];
  return {
    id: first.id,
    username: first.username,
    email: first.email,
    terminalPin: first.terminal_pin,
    accountId: first.account_id,
    locations: rows
      .filter((r) => r.location_id !== null)
      .map((r) => ({
        locationId: r.location_id!,
        memberId: r.member_id!,
        accountId: r.location_account_id!,
        description: r.description!,
        type: Number(r.type),
        canOrder: r.can_order!,
        sortOrder: r.sort_order!,
      })),
  };
}

async function findLocation(db: Queryable, id: string): Promise<Location | undefined> {
  const { rows } = await db.query<{ id: string; member_id: string; description: string; type: number }>(
    'SELECT id, member_id, description, type FROM locations WHERE id = $1',
    [id],
  );
  const row = rows[0];
  return row
    ? { id: row.id, memberId: row.member_id, description: row.description, type: Number(row.type) }
    : undefined;
}

async function findMember(db: Queryable, id: string): Promise<Member | undefined> {
  const { rows } = await db.query<MemberRow>(`SELECT ${MEMBER_COLUMNS} FROM members WHERE id = $1`, [id]);
  return rows[0] === undefined ? undefined : memberOf(rows[0]);
}

async function findAccount(db: Queryable, memberId: string, accountId: string): Promise<Account | undefined> {
  const { rows } = await db.query<{
    member_id: string;
    account_id: string;
    description: string;
    standing: AccountStanding;
  }>('SELECT member_id, account_id, description, standing FROM accounts WHERE member_id = $1 AND account_id = $2', [
    memberId,
    accountId,
  ]);
  const row = rows[0];
  return row
    ? { memberId: row.member_id, accountId: row.account_id, description: row.description, standing: row.standing }
    : undefined;
}
