import {
  usersCreateRequestRules,
  validators,
  type UsersCreateRequest,
  type ValidationIssue,
} from '../../contracts/index';
import type { Queryable } from '../store/store';
import type { AddressValidator, PostalAddress } from '../address/address-validator';
import { CreateUserMessage, CreateUserRejected, type RequestProblem } from './internal-api-errors';

// Every check of a create-user request, run together so one answer lists every problem:
// the schema (types, required and unknown fields), the location rules, and the checks
// against the directory and the address service. A check runs whenever the fields it reads
// are well-formed, whatever else is wrong. The uniqueness checks here only serve that
// report; the database's unique constraints decide races (user-writer.ts).

export interface CheckedUser {
  /** The request with the specification's defaults applied. */
  request: Required<UsersCreateRequest>;
  /** The member the account belongs to; every location is one of its locations. */
  memberId: string;
  /** The address as the validator standardized it. */
  address: PostalAddress;
}

export interface CheckDeps {
  db: Queryable;
  addressValidator: AddressValidator;
}

const validateSchema = validators['users-create'].request;

export async function checkCreateUser(body: unknown, deps: CheckDeps): Promise<CheckedUser> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new CreateUserRejected([{ path: '', detail: 'must be a JSON object' }]);
  }
  const problems = schemaProblems(validateSchema(body).errors);
  // Whether a field passed the schema (nothing reported at it or below it).
  const wellFormed = (path: string) => !problems.some((p) => p.path === path || p.path.startsWith(`${path}/`));
  const input = body as UsersCreateRequest;
  const { db } = deps;

  if (wellFormed('/locations')) {
    for (const issue of usersCreateRequestRules(input))
      problems.push({ path: issue.path, spec: CreateUserMessage.InvalidLocations, detail: issue.message });
  }

  if (wellFormed('/catalog_region_id')) {
    const { rows } = await db.query('SELECT 1 FROM catalog_regions WHERE id = $1', [input.catalog_region_id]);
    if (rows.length === 0)
      problems.push({
        path: '/catalog_region_id',
        spec: CreateUserMessage.InvalidCatalogRegion,
        detail: `no catalog region '${input.catalog_region_id}'`,
      });
  }

  if (wellFormed('/username')) {
    const { rows } = await db.query('SELECT 1 FROM users WHERE username = $1', [input.username]);
    if (rows.length > 0) problems.push({ path: '/username', spec: CreateUserMessage.UsernameTaken });
  }

  if (wellFormed('/email')) {
    const { rows } = await db.query('SELECT 1 FROM users WHERE lower(email) = lower($1)', [input.email]);
    if (rows.length > 0) problems.push({ path: '/email', spec: CreateUserMessage.EmailTaken });
  }

  let address: PostalAddress | undefined;
  if (['/address', '/city', '/state', '/zip'].every(wellFormed)) {
    const check = await deps.addressValidator.validate({
      address: input.address,
      city: input.city,
      state: input.state,
      zip: input.zip,
    });
    if (check.valid) address = check.standardized;
    else
      for (const p of check.problems)
        problems.push({ path: `/${p.field}`, spec: CreateUserMessage.InvalidAddress, detail: p.message });
  }

  const memberId = wellFormed('/account_id')
    ? await accountMember(db, input, wellFormed('/locations'), problems)
    : undefined;
  if (wellFormed('/locations')) await checkLocations(db, input, memberId, problems);

  if (problems.length > 0 || address === undefined || memberId === undefined) throw new CreateUserRejected(problems);
  return {
    request: { phone_number: '', company_name: '', terminal_pin: null, ...input },
    memberId,
    address,
  };
}

/** One problem per field: a union's branches (string or null) each report a type error. */
function schemaProblems(issues: ValidationIssue[]): RequestProblem[] {
  const out: RequestProblem[] = [];
  for (const issue of issues) {
    const previous = out.at(-1);
    if (issue.keyword === 'type' && previous?.path === issue.path && previous.detail?.startsWith('must be ')) {
      previous.detail += ` or ${issue.message.replace(/^must be (an? null)?/, (_, n) => (n ? 'null' : ''))}`;
    } else out.push({ path: issue.path, detail: issue.message });
  }
  return out;
}

/**
 * The member whose account this is. Account ids are unique per member, not globally: when
 * several members use the same id, the member of the primary location decides.
 */
async function accountMember(
  db: Queryable,
  input: UsersCreateRequest,
  locationsReadable: boolean,
  problems: RequestProblem[],
): Promise<string | undefined> {
  const { rows } = await db.query<{ member_id: string }>(
    'SELECT member_id FROM accounts WHERE account_id = $1 ORDER BY member_id',
    [input.account_id],
  );
  const members = rows.map((r) => r.member_id);
  if (members.length === 0) {
    problems.push({ path: '/account_id', detail: `no member has account '${input.account_id}'` });
    return undefined;
  }
  if (members.length === 1) return members[0];
  const primary = locationsReadable ? input.locations.find((l) => l.sort_order === 1) : undefined;
  if (primary) {
    const { rows: at } = await db.query<{ member_id: string }>('SELECT member_id FROM locations WHERE id = $1', [
      primary.id,
    ]);
    if (at[0] && members.includes(at[0].member_id)) return at[0].member_id;
  }
  problems.push({
    path: '/account_id',
    detail: `account '${input.account_id}' exists at members ${members.join(', ')}; the primary location must be at the one meant`,
  });
  return undefined;
}

/** Each location exists, is listed once, and belongs to the account's member. */
async function checkLocations(
  db: Queryable,
  input: UsersCreateRequest,
  memberId: string | undefined,
  problems: RequestProblem[],
): Promise<void> {
  const ids = input.locations.map((l) => l.id);
  const { rows } = await db.query<{ id: string; member_id: string }>(
    'SELECT id, member_id FROM locations WHERE id = ANY($1::text[])',
    [ids],
  );
  const memberOf = new Map(rows.map((r) => [r.id, r.member_id]));
  const firstAt = new Map<string, number>();
  input.locations.forEach(({ id }, i) => {
    const path = `/locations/${i}/id`;
    const spec = CreateUserMessage.InvalidLocations;
    const seen = firstAt.get(id);
    if (seen !== undefined)
      return void problems.push({ path, spec, detail: `location '${id}' is also listed at /locations/${seen}` });
    firstAt.set(id, i);
    const owner = memberOf.get(id);
    if (owner === undefined) problems.push({ path, spec, detail: `no location '${id}'` });
    else if (memberId !== undefined && owner !== memberId) {
      problems.push({
        path,
        spec,
        detail: `location '${id}' belongs to member ${owner}, not ${memberId} (the member of account '${input.account_id}')`,
      });
    }
  });
}
