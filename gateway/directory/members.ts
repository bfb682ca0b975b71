// Members as data the operator manages: create, update, list, show, suspend, reinstate, and
// their locations and accounts. What the internal API's /internal/members routes and
// `npm run members` both run (docs/gateway/members.md).
//
// Every write is checked whole before anything is written (the shapes of member-shapes.ts, the
// production seller-address policy), then runs in one transaction that also records the change
// (member_changes: who, when, what, secrets masked) and sends the store's directory-change signal,
// so every gateway instance drops its cached directory on commit; the directory of this process
// is invalidated at once. A write never makes a member live: only a passing certificate does.
import { compileValidator, type Validator } from '../../contracts/validator';
import { MAX_ID_LENGTH, PLAIN_TEXT_PATTERN } from '../../contracts/schemas/common';
import type { StateMapFile } from '../../contracts/state-map-schema';
import { passingCertificate } from '../certification/certification-reads';
import { CURRENT_CONTRACT_MAJOR } from '../certification/certification-types';
import { systemClock, type Clock } from '../clock';
import type { Queryable, Store } from '../store/store';
import type { AccountStanding, Directory, MemberStatus, SellerAuth } from './directory';
import { MEMBER_STATUSES } from './directory';
import {
  AddAccountInput,
  AddLocationInput,
  CreateMemberInput,
  DEFAULT_TIMEOUT_MS,
  OperatorName,
  OptionalReasonInput,
  ReasonInput,
  UpdateAccountInput,
  UpdateLocationInput,
  UpdateMemberInput,
} from './member-shapes';
import {
  MEMBER_COLUMNS as DIRECTORY_MEMBER_COLUMNS,
  memberOf,
  type MemberRow as DirectoryMemberRow,
} from './store-directory';

/** invalid: 400; not-found: 404; conflict: 409 (the state of the member forbids it). */
export type MemberRefusalKind = 'invalid' | 'not-found' | 'conflict';

export interface MemberProblem {
  /** JSON pointer of the field at fault ('' for the whole request). */
  path: string;
  message: string;
  /** The rule's name, when a rule rather than a shape refused it. */
  rule?: string;
}

/** A write or read refused: nothing was written. */
export class MemberCommandError extends Error {
  override name = 'MemberCommandError';
  constructor(
    readonly kind: MemberRefusalKind,
    message: string,
    readonly problems: MemberProblem[] = [],
  ) {
    super(message);
  }
}

/** The rules a write can break besides the shapes, by the names refusals carry. */
export const MEMBER_RULES = {
  liveNeedsCertificate: 'member.live-needs-certificate',
  statusByAction: 'member.status-by-action',
  sellerUrlPolicy: 'member.seller-url-policy',
  sellerAuthFields: 'member.seller-auth-fields',
  idTaken: 'member.id-taken',
  transition: 'member.status-transition',
} as const;

export const LIVE_NEEDS_CERTIFICATE = 'a member goes live only on a passing certificate';

const SECRET = '[secret]';
const SECRET_CHANGED = '[secret, changed]';

export interface SellerAuthView {
  kind: SellerAuth['kind'];
  /** basic only. Tokens and passwords are never shown. */
  username?: string;
}

export interface MemberView {
  id: string;
  name: string;
  sellerUrl: string;
  sellerAuth: SellerAuthView;
  integration: string | null;
  timeoutMs: number;
  replyMode: 'strict' | 'lenient';
  status: MemberStatus;
  stateMap: StateMapFile | null;
  slos: string[] | null;
}

export interface LocationView {
  id: string;
  memberId: string;
  description: string;
  type: number;
}

export interface AccountView {
  memberId: string;
  accountId: string;
  description: string;
  standing: AccountStanding;
}

export interface CertificateView {
  id: number;
  verdict: 'passed' | 'failed';
  contractVersion: string;
  contractMajor: number;
  issuedAt: string;
}

export interface MemberDetail extends MemberView {
  locations: LocationView[];
  accounts: AccountView[];
  /** The newest certificate, passed or failed; null before the first certification. */
  certificate: CertificateView | null;
}

export interface MemberChange {
  id: number;
  memberId: string;
  actor: string;
  action: MemberAction;
  detail: Record<string, unknown>;
  at: string;
}

/** What a member_changes row records; `member.certified` is written by a certification that passed. */
export const MEMBER_ACTIONS = [
  'member.create',
  'member.update',
  'member.suspend',
  'member.reinstate',
  'member.certified',
  'location.add',
  'location.update',
  'account.add',
  'account.update',
] as const;
export type MemberAction = (typeof MEMBER_ACTIONS)[number];

export interface MemberWriterOptions {
  store: Store;
  /** The gateway's directory in this process: dropped after every write. */
  directory?: Pick<Directory, 'invalidate'>;
  clock?: Clock;
  /** Why a seller URL may not be written (production's address policy); undefined when it may. */
  sellerUrlRefusal?: (sellerUrl: string) => Promise<string | undefined>;
}

const invalid = (message: string, problems: MemberProblem[]) => new MemberCommandError('invalid', message, problems);

function shapeOf<T>(validate: Validator<T>, body: unknown, what: string): T {
  const result = validate(body);
  if (result.valid) return body as T;
  const problems = result.errors.map((e) => ({ path: e.path, message: `${e.path || 'body'} ${e.message}` }));
  const listed = problems
    .slice(0, 5)
    .map((p) => p.message)
    .join('; ');
  throw invalid(`${what}: ${listed}${problems.length > 5 ? ` (and ${problems.length - 5} more)` : ''}`, problems);
}

const VALIDATE = {
  create: compileValidator(CreateMemberInput),
  update: compileValidator(UpdateMemberInput),
  reason: compileValidator(ReasonInput),
  optionalReason: compileValidator(OptionalReasonInput),
  addLocation: compileValidator(AddLocationInput),
  updateLocation: compileValidator(UpdateLocationInput),
  addAccount: compileValidator(AddAccountInput),
  updateAccount: compileValidator(UpdateAccountInput),
  operator: compileValidator(OperatorName),
};

const PLAIN = new RegExp(PLAIN_TEXT_PATTERN, 'u');

/** An id named in a path: one the store can hold (no NUL, no lone surrogate, bounded), else a 400 naming it. */
export function idParam(value: string, name: string): string {
  const path = `path:${name}`;
  if (!PLAIN.test(value) || [...value].length > MAX_ID_LENGTH || value === '')
    throw invalid(`${path} must be 1 to ${MAX_ID_LENGTH} characters, without NUL (U+0000) or an unpaired surrogate`, [
      { path, message: `1 to ${MAX_ID_LENGTH} characters of plain text` },
    ]);
  return value;
}

/** Who makes a change: required, plain text, bounded. */
export function operatorOf(actor: unknown, path = 'header:X-Operator'): string {
  const trimmed = typeof actor === 'string' ? actor.trim() : actor;
  if (trimmed === undefined || trimmed === '')
    throw invalid(`${path} is required: name who makes the change (it is recorded)`, [
      { path, message: 'required: who makes the change' },
    ]);
  const result = VALIDATE.operator(trimmed);
  if (!result.valid)
    throw invalid(`${path} ${result.errors[0].message}`, [{ path, message: result.errors[0].message }]);
  return trimmed as string;
}

/** `status` in a write: `live` is the certificate's to set (409), the others are actions of their own (400). */
function refuseStatus(status: string | undefined, creating: boolean): void {
  if (status === undefined || (creating && status === 'pending')) return;
  if (status === 'live')
    throw new MemberCommandError('conflict', `${LIVE_NEEDS_CERTIFICATE} for contract major ${CURRENT_CONTRACT_MAJOR}`, [
      { path: '/status', message: LIVE_NEEDS_CERTIFICATE, rule: MEMBER_RULES.liveNeedsCertificate },
    ]);
  throw invalid(
    creating
      ? `a new member starts pending; status '${status}' is not written`
      : `status is changed by suspend and reinstate, not by an update`,
    [{ path: '/status', message: 'not writable here', rule: MEMBER_RULES.statusByAction }],
  );
}

/** The auth as stored: each kind carries exactly its secrets (the members_seller_auth_fields check). */
function sellerAuthOf(input: { kind: string; token?: string; username?: string; password?: string }): SellerAuth {
  const extra = (names: string[]) =>
    names
      .filter((n) => (input as Record<string, unknown>)[n] !== undefined)
      .map((n) => ({
        path: `/sellerAuth/${n}`,
        message: `not used by kind '${input.kind}'`,
        rule: MEMBER_RULES.sellerAuthFields,
      }));
  const missing = (names: string[]) =>
    names
      .filter((n) => (input as Record<string, unknown>)[n] === undefined)
      .map((n) => ({
        path: `/sellerAuth/${n}`,
        message: `required by kind '${input.kind}'`,
        rule: MEMBER_RULES.sellerAuthFields,
      }));
  const problems =
    input.kind === 'none'
      ? extra(['token', 'username', 'password'])
      : input.kind === 'bearer'
        ? [...missing(['token']), ...extra(['username', 'password'])]
        : [...missing(['username', 'password']), ...extra(['token'])];
  if (problems.length > 0)
    throw invalid(`sellerAuth: ${problems.map((p) => `${p.path} ${p.message}`).join('; ')}`, problems);
  if (input.kind === 'bearer') return { kind: 'bearer', token: input.token! };
  if (input.kind === 'basic') return { kind: 'basic', username: input.username!, password: input.password! };
  return { kind: 'none' };
}

/** The URL itself (http or https, no credentials in it), then production's address policy. */
async function checkSellerUrl(options: MemberWriterOptions, sellerUrl: string): Promise<string> {
  const refused = (reason: string) =>
    invalid(`sellerUrl '${sellerUrl}' refused: ${reason}`, [
      { path: '/sellerUrl', message: reason, rule: MEMBER_RULES.sellerUrlPolicy },
    ]);
  let url: URL;
  try {
    url = new URL(sellerUrl);
  } catch {
    throw refused('not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw refused(`${url.protocol} is not http or https`);
  if (url.username !== '' || url.password !== '')
    throw refused('credentials do not go in the URL (it is shown and logged): use sellerAuth');
  const policy = await options.sellerUrlRefusal?.(sellerUrl);
  if (policy !== undefined) throw refused(policy);
  return sellerUrl;
}

/** The directory's row and what only the operator reads: the state map and SLOs certification runs with. */
interface MemberRow extends DirectoryMemberRow {
  state_map: StateMapFile | null;
  slos: string[] | null;
}

const MEMBER_COLUMNS = `${DIRECTORY_MEMBER_COLUMNS}, state_map, slos`;

const authView = (auth: SellerAuth): SellerAuthView =>
  auth.kind === 'basic' ? { kind: 'basic', username: auth.username } : { kind: auth.kind };

const viewOf = (row: MemberRow): MemberView => {
  const member = memberOf(row);
  return { ...member, sellerAuth: authView(member.sellerAuth), stateMap: row.state_map, slos: row.slos };
};

/** The auth as the change history holds it: the kind and username, each secret as a mark. */
function maskedAuth(auth: SellerAuth, before?: SellerAuth): Record<string, string> {
  const changed = (now: string, was: string | undefined) =>
    was === undefined || now === was ? SECRET : SECRET_CHANGED;
  if (auth.kind === 'bearer')
    return { kind: 'bearer', token: changed(auth.token, before?.kind === 'bearer' ? before.token : undefined) };
  if (auth.kind === 'basic')
    return {
      kind: 'basic',
      username: auth.username,
      password: changed(auth.password, before?.kind === 'basic' ? before.password : undefined),
    };
  return { kind: 'none' };
}

/** A member's fields as the history records them (the state map by its size: it can be large). */
function recorded(view: MemberView, auth: SellerAuth, before?: SellerAuth): Record<string, unknown> {
  const { sellerAuth: _auth, stateMap, ...rest } = view;
  return {
    ...rest,
    sellerAuth: maskedAuth(auth, before),
    stateMap: stateMap === null ? null : { states: Object.keys(stateMap.states ?? {}).length },
  };
}

const json = (value: unknown) => (value === undefined || value === null ? null : JSON.stringify(value));

interface Ctx extends MemberWriterOptions {
  clock: Clock;
}

/** One write: its transaction, the change row in it, the signal; this process's directory dropped after. */
async function write<T>(
  ctx: Ctx,
  work: (
    tx: Queryable,
    record: (memberId: string, action: MemberAction, detail: object) => Promise<void>,
  ) => Promise<T>,
  actor: string,
): Promise<T> {
  const result = await ctx.store.transaction(async (tx) => {
    const at = new Date(ctx.clock());
    const record = async (memberId: string, action: MemberAction, detail: object) => {
      await tx.query(
        'INSERT INTO member_changes (member_id, actor, action, detail, at) VALUES ($1, $2, $3, $4::jsonb, $5)',
        [memberId, actor, action, JSON.stringify(detail), at],
      );
    };
    const value = await work(tx, record);
    await ctx.store.notifyDirectoryChanged?.(tx);
    return value;
  });
  ctx.directory?.invalidate();
  return result;
}

async function rowOf(q: Queryable, id: string, lock = false): Promise<MemberRow> {
  const { rows } = await q.query<MemberRow>(
    `SELECT ${MEMBER_COLUMNS} FROM members WHERE id = $1${lock ? ' FOR UPDATE' : ''}`,
    [id],
  );
  if (rows[0] === undefined)
    throw new MemberCommandError('not-found', `unknown member '${id}'`, [{ path: '/id', message: 'no such member' }]);
  return rows[0];
}

async function create(ctx: Ctx, body: unknown, actor: string): Promise<MemberView> {
  const input = shapeOf(VALIDATE.create, body, 'member');
  refuseStatus(input.status, true);
  const auth = sellerAuthOf(input.sellerAuth ?? { kind: 'none' });
  const sellerUrl = await checkSellerUrl(ctx, input.sellerUrl);
  return write(
    ctx,
    async (tx, record) => {
      const inserted = await tx.query<MemberRow>(
        `INSERT INTO members (id, name, seller_url, seller_auth_kind, seller_auth_token, seller_auth_username,
         seller_auth_password, integration, timeout_ms, reply_mode, status, state_map, slos)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'pending', $11::jsonb, $12::jsonb)
       ON CONFLICT (id) DO NOTHING RETURNING ${MEMBER_COLUMNS}`,
        [
          input.id,
          input.name.trim(),
          sellerUrl,
          auth.kind,
          auth.kind === 'bearer' ? auth.token : null,
          auth.kind === 'basic' ? auth.username : null,
          auth.kind === 'basic' ? auth.password : null,
          input.integration === undefined || input.integration === '' ? null : input.integration,
          input.timeoutMs ?? DEFAULT_TIMEOUT_MS,
          input.replyMode ?? 'strict',
          json(input.stateMap),
          json(input.slos),
        ],
      );
      if (inserted.rows[0] === undefined)
        throw new MemberCommandError('conflict', `member '${input.id}' exists already: update it instead`, [
          { path: '/id', message: 'taken', rule: MEMBER_RULES.idTaken },
        ]);
      const view = viewOf(inserted.rows[0]);
      await record(view.id, 'member.create', { after: recorded(view, auth) });
      return view;
    },
    actor,
  );
}

async function update(ctx: Ctx, id: string, body: unknown, actor: string): Promise<MemberView> {
  const input = shapeOf(VALIDATE.update, body, 'member update');
  refuseStatus(input.status, false);
  const newAuth = input.sellerAuth === undefined ? undefined : sellerAuthOf(input.sellerAuth);
  if (input.sellerUrl !== undefined) await checkSellerUrl(ctx, input.sellerUrl);
  return write(
    ctx,
    async (tx, record) => {
      const before = await rowOf(tx, id, true);
      const beforeAuth = memberOf(before).sellerAuth;
      const auth = newAuth ?? beforeAuth;
      const { rows } = await tx.query<MemberRow>(
        `UPDATE members SET name = $2, seller_url = $3, seller_auth_kind = $4, seller_auth_token = $5,
         seller_auth_username = $6, seller_auth_password = $7, integration = $8, timeout_ms = $9,
         reply_mode = $10, state_map = $11::jsonb, slos = $12::jsonb
       WHERE id = $1 RETURNING ${MEMBER_COLUMNS}`,
        [
          id,
          input.name?.trim() ?? before.name,
          input.sellerUrl ?? before.seller_url,
          auth.kind,
          auth.kind === 'bearer' ? auth.token : null,
          auth.kind === 'basic' ? auth.username : null,
          auth.kind === 'basic' ? auth.password : null,
          input.integration === undefined ? before.integration : input.integration === '' ? null : input.integration,
          input.timeoutMs ?? before.timeout_ms,
          input.replyMode ?? before.reply_mode,
          input.stateMap === undefined ? json(before.state_map) : json(input.stateMap),
          input.slos === undefined ? json(before.slos) : json(input.slos),
        ],
      );
      const after = viewOf(rows[0]);
      const was = recorded(viewOf(before), beforeAuth);
      const now = recorded(after, auth, beforeAuth);
      const changed = Object.keys(now).filter((k) => JSON.stringify(now[k]) !== JSON.stringify(was[k]));
      const pick = (from: Record<string, unknown>) => Object.fromEntries(changed.map((k) => [k, from[k]]));
      await record(id, 'member.update', { before: pick(was), after: pick(now) });
      return after;
    },
    actor,
  );
}

async function suspend(ctx: Ctx, id: string, body: unknown, actor: string): Promise<MemberView> {
  const { reason } = shapeOf(VALIDATE.reason, body, 'suspend');
  return write(
    ctx,
    async (tx, record) => {
      const before = await rowOf(tx, id, true);
      if (before.status === 'suspended')
        throw new MemberCommandError('conflict', `member '${id}' is suspended already`, [
          { path: '', message: 'suspended already', rule: MEMBER_RULES.transition },
        ]);
      const { rows } = await tx.query<MemberRow>(
        `UPDATE members SET status = 'suspended' WHERE id = $1 RETURNING ${MEMBER_COLUMNS}`,
        [id],
      );
      await record(id, 'member.suspend', {
        reason: reason.trim(),
        before: { status: before.status },
        after: { status: 'suspended' },
      });
      return viewOf(rows[0]);
    },
    actor,
  );
}

/** Back to live when the member holds a passing certificate for the current major, else to pending. */
async function reinstate(ctx: Ctx, id: string, body: unknown, actor: string): Promise<MemberView> {
  const { reason } = shapeOf(VALIDATE.optionalReason, body ?? {}, 'reinstate');
  return write(
    ctx,
    async (tx, record) => {
      const before = await rowOf(tx, id, true);
      if (before.status !== 'suspended')
        throw new MemberCommandError(
          'conflict',
          `member '${id}' is ${before.status}, not suspended: nothing to reinstate`,
          [{ path: '', message: `is ${before.status}`, rule: MEMBER_RULES.transition }],
        );
      const certificate = await passingCertificate(tx, id, CURRENT_CONTRACT_MAJOR);
      const status: MemberStatus = certificate === undefined ? 'pending' : 'live';
      const { rows } = await tx.query<MemberRow>(
        `UPDATE members SET status = $2 WHERE id = $1 RETURNING ${MEMBER_COLUMNS}`,
        [id, status],
      );
      await record(id, 'member.reinstate', {
        ...(reason === undefined ? {} : { reason: reason.trim() }),
        before: { status: before.status },
        after: { status },
        certificate: certificate === undefined ? null : certificate.id,
        contractMajor: CURRENT_CONTRACT_MAJOR,
      });
      return viewOf(rows[0]);
    },
    actor,
  );
}

async function list(ctx: Ctx, filter: { status?: string } = {}): Promise<MemberView[]> {
  if (filter.status !== undefined && !(MEMBER_STATUSES as readonly string[]).includes(filter.status))
    throw invalid(`status must be one of ${MEMBER_STATUSES.join(', ')}`, [
      { path: 'query:status', message: `one of ${MEMBER_STATUSES.join(', ')}` },
    ]);
  const { rows } = await ctx.store.query<MemberRow>(
    `SELECT ${MEMBER_COLUMNS} FROM members WHERE $1::text IS NULL OR status = $1 ORDER BY id`,
    [filter.status ?? null],
  );
  return rows.map(viewOf);
}

async function show(ctx: Ctx, id: string): Promise<MemberDetail> {
  const row = await rowOf(ctx.store, id);
  const [locations, accounts, certificate] = [
    await listLocations(ctx, id, false),
    await listAccounts(ctx, id, false),
    await ctx.store.query<{
      id: string;
      verdict: 'passed' | 'failed';
      contract_version: string;
      contract_major: number;
      issued_at: Date | string;
    }>(
      `SELECT id, verdict, contract_version, contract_major, issued_at FROM certificates
        WHERE member_id = $1 ORDER BY issued_at DESC, id DESC LIMIT 1`,
      [id],
    ),
  ];
  const c = certificate.rows[0];
  return {
    ...viewOf(row),
    locations,
    accounts,
    certificate:
      c === undefined
        ? null
        : {
            id: Number(c.id),
            verdict: c.verdict,
            contractVersion: c.contract_version,
            contractMajor: c.contract_major,
            issuedAt: new Date(c.issued_at).toISOString(),
          },
  };
}

async function changes(ctx: Ctx, id: string, limit = 50): Promise<MemberChange[]> {
  await rowOf(ctx.store, id);
  const { rows } = await ctx.store.query<{
    id: string;
    member_id: string;
    actor: string;
    action: MemberAction;
    detail: Record<string, unknown>;
    at: Date | string;
  }>(
    'SELECT id, member_id, actor, action, detail, at FROM member_changes WHERE member_id = $1 ORDER BY id DESC LIMIT $2',
    [id, limit],
  );
  return rows.map((r) => ({
    id: Number(r.id),
    memberId: r.member_id,
    actor: r.actor,
    action: r.action,
    detail: r.detail,
    at: new Date(r.at).toISOString(),
  }));
}

async function listLocations(ctx: Ctx, memberId: string, check = true): Promise<LocationView[]> {
  if (check) await rowOf(ctx.store, memberId);
  const { rows } = await ctx.store.query<{ id: string; member_id: string; description: string; type: number }>(
    'SELECT id, member_id, description, type FROM locations WHERE member_id = $1 ORDER BY id',
    [memberId],
  );
  return rows.map((r) => ({ id: r.id, memberId: r.member_id, description: r.description, type: Number(r.type) }));
}

async function addLocation(ctx: Ctx, memberId: string, body: unknown, actor: string): Promise<LocationView> {
  const input = shapeOf(VALIDATE.addLocation, body, 'location');
  return write(
    ctx,
    async (tx, record) => {
      await rowOf(tx, memberId, true);
      const inserted = await tx.query(
        'INSERT INTO locations (id, member_id, description, type) VALUES ($1, $2, $3, $4) ON CONFLICT (id) DO NOTHING',
        [input.id, memberId, input.description.trim(), input.type],
      );
      if (inserted.affectedRows !== 1) {
        const { rows } = await tx.query<{ member_id: string }>('SELECT member_id FROM locations WHERE id = $1', [
          input.id,
        ]);
        throw new MemberCommandError(
          'conflict',
          `location '${input.id}' exists already (member '${rows[0]?.member_id}'): location ids are unique across members`,
          [{ path: '/id', message: 'taken', rule: MEMBER_RULES.idTaken }],
        );
      }
      const location = { id: input.id, memberId, description: input.description.trim(), type: input.type };
      await record(memberId, 'location.add', { location });
      return location;
    },
    actor,
  );
}

async function updateLocation(
  ctx: Ctx,
  memberId: string,
  locationId: string,
  body: unknown,
  actor: string,
): Promise<LocationView> {
  const input = shapeOf(VALIDATE.updateLocation, body, 'location update');
  return write(
    ctx,
    async (tx, record) => {
      await rowOf(tx, memberId, true);
      const { rows } = await tx.query<{ description: string; type: number }>(
        'SELECT description, type FROM locations WHERE id = $1 AND member_id = $2 FOR UPDATE',
        [locationId, memberId],
      );
      if (rows[0] === undefined)
        throw new MemberCommandError('not-found', `member '${memberId}' has no location '${locationId}'`, [
          { path: '/locationId', message: 'no such location at this member' },
        ]);
      const before = { description: rows[0].description, type: Number(rows[0].type) };
      const after = { description: input.description?.trim() ?? before.description, type: input.type ?? before.type };
      await tx.query('UPDATE locations SET description = $3, type = $4 WHERE id = $1 AND member_id = $2', [
        locationId,
        memberId,
        after.description,
        after.type,
      ]);
      await record(memberId, 'location.update', { location: locationId, before, after });
      return { id: locationId, memberId, ...after };
    },
    actor,
  );
}

async function listAccounts(ctx: Ctx, memberId: string, check = true): Promise<AccountView[]> {
  if (check) await rowOf(ctx.store, memberId);
  const { rows } = await ctx.store.query<{
    member_id: string;
    account_id: string;
    description: string;
    standing: AccountStanding;
  }>('SELECT member_id, account_id, description, standing FROM accounts WHERE member_id = $1 ORDER BY account_id', [
    memberId,
  ]);
  return rows.map((r) => ({
    memberId: r.member_id,
    accountId: r.account_id,
    description: r.description,
    standing: r.standing,
  }));
}

async function addAccount(ctx: Ctx, memberId: string, body: unknown, actor: string): Promise<AccountView> {
  const input = shapeOf(VALIDATE.addAccount, body, 'account');
  return write(
    ctx,
    async (tx, record) => {
      await rowOf(tx, memberId, true);
      const account: AccountView = {
        memberId,
        accountId: input.accountId,
        description: input.description.trim(),
        standing: (input.standing ?? 'good') as AccountStanding,
      };
      const inserted = await tx.query(
        `INSERT INTO accounts (member_id, account_id, description, standing) VALUES ($1, $2, $3, $4)
       ON CONFLICT (member_id, account_id) DO NOTHING`,
        [memberId, account.accountId, account.description, account.standing],
      );
      if (inserted.affectedRows !== 1)
        throw new MemberCommandError('conflict', `member '${memberId}' has an account '${input.accountId}' already`, [
          { path: '/accountId', message: 'taken', rule: MEMBER_RULES.idTaken },
        ]);
      await record(memberId, 'account.add', { account });
      return account;
    },
    actor,
  );
}

async function updateAccount(
  ctx: Ctx,
  memberId: string,
  accountId: string,
  body: unknown,
  actor: string,
): Promise<AccountView> {
  const input = shapeOf(VALIDATE.updateAccount, body, 'account update');
  return write(
    ctx,
    async (tx, record) => {
      await rowOf(tx, memberId, true);
      const { rows } = await tx.query<{ description: string; standing: AccountStanding }>(
        'SELECT description, standing FROM accounts WHERE member_id = $1 AND account_id = $2 FOR UPDATE',
        [memberId, accountId],
      );
      if (rows[0] === undefined)
        throw new MemberCommandError('not-found', `member '${memberId}' has no account '${accountId}'`, [
          { path: '/accountId', message: 'no such account at this member' },
        ]);
      const before = { description: rows[0].description, standing: rows[0].standing };
      const after = {
        description: input.description?.trim() ?? before.description,
        standing: (input.standing ?? before.standing) as AccountStanding,
      };
      await tx.query('UPDATE accounts SET description = $3, standing = $4 WHERE member_id = $1 AND account_id = $2', [
        memberId,
        accountId,
        after.description,
        after.standing,
      ]);
      await record(memberId, 'account.update', { account: accountId, before, after });
      return { memberId, accountId, ...after };
    },
    actor,
  );
}

export function memberWriter(options: MemberWriterOptions) {
  const ctx: Ctx = { ...options, clock: options.clock ?? systemClock };
  return {
    create: async (body: unknown, actor: string) => create(ctx, body, actor),
    update: async (id: string, body: unknown, actor: string) => update(ctx, idParam(id, 'id'), body, actor),
    suspend: async (id: string, body: unknown, actor: string) => suspend(ctx, idParam(id, 'id'), body, actor),
    reinstate: async (id: string, body: unknown, actor: string) => reinstate(ctx, idParam(id, 'id'), body, actor),
    list: async (filter: { status?: string } = {}) => list(ctx, filter),
    show: async (id: string) => show(ctx, idParam(id, 'id')),
    changes: async (id: string, limit?: number) => changes(ctx, idParam(id, 'id'), limit),
    listLocations: async (memberId: string) => listLocations(ctx, idParam(memberId, 'id')),
    addLocation: async (memberId: string, body: unknown, actor: string) =>
      addLocation(ctx, idParam(memberId, 'id'), body, actor),
    updateLocation: async (memberId: string, locationId: string, body: unknown, actor: string) =>
      updateLocation(ctx, idParam(memberId, 'id'), idParam(locationId, 'locationId'), body, actor),
    listAccounts: async (memberId: string) => listAccounts(ctx, idParam(memberId, 'id')),
    addAccount: async (memberId: string, body: unknown, actor: string) =>
      addAccount(ctx, idParam(memberId, 'id'), body, actor),
    updateAccount: async (memberId: string, accountId: string, body: unknown, actor: string) =>
      updateAccount(ctx, idParam(memberId, 'id'), idParam(accountId, 'accountId'), body, actor),
  };
}

export type MemberWriter = ReturnType<typeof memberWriter>;
