// Loads seeds/directory.json (data only; this code lives beside the directory it fills) — the realistic directory a
// fresh install starts with — into the store. Idempotent: it seeds only an empty directory (no members yet), all in one
// transaction, so restarts never duplicate rows nor resurrect what an operator deleted or
// revoked. Two processes seeding one PostgreSQL at once are serialised by an advisory lock.
import { readFile } from 'node:fs/promises';
import { packagePath } from '../../shared/package-root';
import { DEFAULT_SELLER_URL } from '../store/store-config';
import type { Queryable, Store } from '../store/store';
import type { AccountStanding, KeyAlgorithm, SellerAuth } from './directory';

export const DIRECTORY_SEED_FILE = packagePath('seeds', 'directory.json');

const SEED_LOCK_KEY = 72_410_002;

export interface DirectorySeed {
  catalogRegions: { id: string; name: string }[];
  members: {
    id: string;
    name: string;
    sellerAuth: SellerAuth;
    integration: string | null;
    timeoutMs: number;
    replyMode: 'strict' | 'lenient';
  }[];
  locations: { id: string; memberId: string; description: string; type: number }[];
  accounts: { memberId: string; accountId: string; description: string; standing: AccountStanding }[];
  users: {
    username: string;
    email: string;
    firstName: string;
    lastName: string;
    address: string;
    city: string;
    state: string;
    zip: string;
    employeeId: string;
    catalogRegionId: string;
    memberId: string;
    accountId: string;
    phoneNumber: string;
    companyName: string;
    terminalPin: string | null;
    locations: { locationId: string; accountId: string; canOrder: boolean; sortOrder: number }[];
  }[];
  apiClients: {
    id: string;
    name: string;
    users: string[];
    keys: { kid: string; algorithm: KeyAlgorithm; publicKeyFile: string }[];
  }[];
}

export async function readDirectorySeed(file: string = DIRECTORY_SEED_FILE): Promise<DirectorySeed> {
  return JSON.parse(await readFile(file, 'utf8')) as DirectorySeed;
}

export interface SeedOptions {
  /** Every member's seller URL. Default: the local mock seller (openGatewayStore passes MOCK_SELLER_URL). */
  sellerUrl?: string;
  seed?: DirectorySeed;
  /**
   * False in production: the seeded API clients get no keys (the
   * development keys' private halves are public). Default true.
   */
  developmentKeys?: boolean;
  /** Why a member's seller URL may not be written (production's address policy); undefined when it may. */
  sellerUrlRefusal?: (sellerUrl: string) => Promise<string | undefined>;
}

/** A value the directory must not hold; `field` names it as a 400 would. */
export class DirectoryWriteRefused extends Error {
  override name = 'DirectoryWriteRefused';
  constructor(
    readonly field: string,
    readonly reason: string,
  ) {
    super(`${field}: ${reason}`);
  }
}

export interface SeedResult {
  /** False when the directory already had members: nothing was written. */
  seeded: boolean;
}

export async function seedDirectory(store: Store, options: SeedOptions = {}): Promise<SeedResult> {
  const sellerUrl = options.sellerUrl ?? DEFAULT_SELLER_URL;
  const seed = options.seed ?? (await readDirectorySeed());
  const refusal = await options.sellerUrlRefusal?.(sellerUrl);
  if (refusal !== undefined)
    throw new DirectoryWriteRefused('members[].seller_url', `'${sellerUrl}' refused: ${refusal}`);
  const withKeys = options.developmentKeys ?? true;
  const publicKeys = new Map<string, string>();
  for (const client of withKeys ? seed.apiClients : []) {
    for (const key of client.keys)
      publicKeys.set(key.kid, await readFile(packagePath('seeds', key.publicKeyFile), 'utf8'));
  }
  return store.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [SEED_LOCK_KEY]);
    const { rows } = await tx.query<{ present: boolean }>('SELECT EXISTS (SELECT 1 FROM members) AS present');
    if (rows[0].present) return { seeded: false };
    await insertSeed(tx, seed, sellerUrl, publicKeys);
    return { seeded: true };
  });
}

async function insertSeed(tx: Queryable, seed: DirectorySeed, sellerUrl: string, publicKeys: Map<string, string>) {
  await insertMembers(tx, seed, sellerUrl);
  await insertLocationsAndAccounts(tx, seed);
  const userIds = await insertUsers(tx, seed);
  await insertApiClients(tx, seed, userIds, publicKeys);
}

/** The catalog regions and the members, every member's seller at `sellerUrl`. */
async function insertMembers(tx: Queryable, seed: DirectorySeed, sellerUrl: string) {
  for (const region of seed.catalogRegions) {
    await tx.query('INSERT INTO catalog_regions (id, name) VALUES ($1, $2)', [region.id, region.name]);
  }
  for (const m of seed.members) {
    const auth = m.sellerAuth;
    await tx.query(
      `INSERT INTO members (id, name, seller_url, seller_auth_kind, seller_auth_token, seller_auth_username,
         seller_auth_password, integration, timeout_ms, reply_mode, status)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'live')`,
      [
        m.id,
        m.name,
        sellerUrl,
        auth.kind,
        auth.kind === 'bearer' ? auth.token : null,
        auth.kind === 'basic' ? auth.username : null,
        auth.kind === 'basic' ? auth.password : null,
        m.integration,
        m.timeoutMs,
        m.replyMode,
      ],
    );
  }
}

async function insertLocationsAndAccounts(tx: Queryable, seed: DirectorySeed) {
  for (const l of seed.locations) {
    await tx.query('INSERT INTO locations (id, member_id, description, type) VALUES ($1, $2, $3, $4)', [
      l.id,
      l.memberId,
      l.description,
      l.type,
    ]);
  }
  for (const a of seed.accounts) {
    await tx.query('INSERT INTO accounts (member_id, account_id, description, standing) VALUES ($1, $2, $3, $4)', [
      a.memberId,
      a.accountId,
      a.description,
      a.standing,
    ]);
  }
}

/** The users with their locations; returns each user's id by username. */
async function insertUsers(tx: Queryable, seed: DirectorySeed): Promise<Map<string, number>> {
  const userIds = new Map<string, number>();
  for (const u of seed.users) {
    const { rows } = await tx.query<{ id: number }>(
      `INSERT INTO users (username, email, first_name, last_name, address, city, state, zip, employee_id,
         catalog_region_id, account_id, member_id, phone_number, company_name, terminal_pin)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) RETURNING id`,
      [
        u.username,
        u.email,
        u.firstName,
        u.lastName,
        u.address,
        u.city,
        u.state,
        u.zip,
        u.employeeId,
        u.catalogRegionId,
        u.accountId,
        u.memberId,
        u.phoneNumber,
        u.companyName,
        u.terminalPin,
      ],
    );
    userIds.set(u.username, rows[0].id);
    for (const ul of u.locations) {
      // member_id comes from the location itself; the foreign keys then check the account is held there.
      const inserted = await tx.query(
        `INSERT INTO user_locations (user_id, location_id, member_id, account_id, can_order, sort_order)
         SELECT $1, id, member_id, $3, $4, $5 FROM locations WHERE id = $2`,
        [rows[0].id, ul.locationId, ul.accountId, ul.canOrder, ul.sortOrder],
      );
      if (inserted.affectedRows !== 1)
        throw new Error(`seed: user ${u.username} lists unknown location ${ul.locationId}`);
    }
  }
  return userIds;
}

/** The API clients, the users they act for, and the keys to register (publicKeys: none in production). */
async function insertApiClients(
  tx: Queryable,
  seed: DirectorySeed,
  userIds: Map<string, number>,
  publicKeys: Map<string, string>,
) {
  for (const c of seed.apiClients) {
    await tx.query('INSERT INTO api_clients (id, name) VALUES ($1, $2)', [c.id, c.name]);
    for (const username of c.users) {
      const userId = userIds.get(username);
      if (userId === undefined) throw new Error(`seed: API client ${c.id} links unknown user ${username}`);
      await tx.query('INSERT INTO api_client_users (client_id, user_id) VALUES ($1, $2)', [c.id, userId]);
    }
    // publicKeys holds only the keys to register (none in production).
    for (const k of c.keys.filter((key) => publicKeys.has(key.kid))) {
      await tx.query('INSERT INTO api_keys (kid, client_id, algorithm, public_key_pem) VALUES ($1, $2, $3, $4)', [
        k.kid,
        c.id,
        k.algorithm,
        publicKeys.get(k.kid),
      ]);
    }
  }
}
