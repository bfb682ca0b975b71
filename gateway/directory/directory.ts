// The gateway's directory as the request path sees it: members and their seller systems,
// locations, accounts, buyer users, API keys. Backed by the store, cached in memory (the
// cache can always be rebuilt from the store, so several gateway instances may share one
// PostgreSQL). Implemented by createDirectory(store) in this folder.

export type SellerAuth =
  { kind: 'none' } | { kind: 'bearer'; token: string } | { kind: 'basic'; username: string; password: string };

/** pending: added, not yet certified; live: serves buyers; suspended: stopped by an operator (members.md). */
export type MemberStatus = 'pending' | 'live' | 'suspended';

export const MEMBER_STATUSES: readonly MemberStatus[] = ['pending', 'live', 'suspended'];

export interface Member {
  id: string;
  name: string;
  /** The seller system's URL; forwarded requests are POSTed here. */
  sellerUrl: string;
  sellerAuth: SellerAuth;
  /** Sent as `integration` in forwarded requests, when set. */
  integration: string | null;
  /** Deadline for one seller call. */
  timeoutMs: number;
  /**
   * How a reply that breaks a rule is handled: 'strict' refuses it (5500), 'lenient' passes
   * it on with a warning. Always set by createDirectory; optional so hand-built Members
   * (tests) may leave it out, meaning 'strict'.
   */
  replyMode?: 'strict' | 'lenient';
  /** Only a live member serves buyers; the others are refused before any seller call (3110). */
  status: MemberStatus;
}

export interface Location {
  id: string;
  memberId: string;
  description: string;
  /** 1 store, 2 warehouse (codes.ts LocationType). */
  type: number;
}

export type AccountStanding = 'good' | 'on_hold' | 'credit_limit';

export interface Account {
  memberId: string;
  accountId: string;
  description: string;
  standing: AccountStanding;
}

/** One of a buyer user's locations, with the account the user holds at its member. */
export interface UserLocation {
  locationId: string;
  memberId: string;
  accountId: string;
  description: string;
  type: number;
  canOrder: boolean;
  sortOrder: number;
}

export interface BuyerUser {
  id: number;
  username: string;
  email: string;
  terminalPin: string | null;
  /** The user's primary account (spec: account_id on user creation). */
  accountId: string;
  /** Sorted by sortOrder. */
  locations: UserLocation[];
}

export type KeyAlgorithm = 'RS256' | 'ES256';

export interface ApiKey {
  kid: string;
  clientId: string;
  algorithm: KeyAlgorithm;
  /** SPKI PEM of the public key. */
  publicKeyPem: string;
  active: boolean;
}

/** A cached answer: `value` may itself be undefined (known not to exist). */
export interface CachedAnswer<V> {
  value: V;
}

/**
 * The hot look-ups answered synchronously when the answer is in memory, undefined when it is
 * not (then ask the Directory's own method). Same answers, minus a promise per look-up.
 */
export interface CachedLookups {
  key(kid: string): CachedAnswer<ApiKey | undefined> | undefined;
  linkedUsernames(clientId: string): CachedAnswer<string[]> | undefined;
  user(username: string): CachedAnswer<BuyerUser | undefined> | undefined;
  member(id: string): CachedAnswer<Member | undefined> | undefined;
}

export interface Directory {
  findKey(kid: string): Promise<ApiKey | undefined>;
  /** Usernames of the buyer users an API client may act for. */
  linkedUsernames(clientId: string): Promise<string[]>;
  findUser(username: string): Promise<BuyerUser | undefined>;
  findLocation(id: string): Promise<Location | undefined>;
  findMember(id: string): Promise<Member | undefined>;
  findAccount(memberId: string, accountId: string): Promise<Account | undefined>;
  /** Drops cached entries after a write (keys revoked, users created, …). */
  invalidate(): void;
  /** Present on a caching directory (createDirectory). */
  cached?: CachedLookups;
}
