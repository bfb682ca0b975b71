// npm run members -- add|list|show|update|suspend|reinstate|locations|accounts|changes …
//
// Members, their locations and accounts in the gateway's store (docs/gateway/members.md). Asks the
// running internal API first (INTERNAL_API_URL, default http://127.0.0.1:$INTERNAL_PORT or 8081,
// credential INTERNAL_API_TOKEN or the development default), so it works beside `npm start` on
// the embedded store and a change reaches buyers at once; opens the store itself (DATABASE_URL,
// else GATEWAY_DATA_DIR, else var/pglite) when nothing answers. Every write is recorded under the
// operator's name: --operator, else $USER.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { pathToFileURL } from 'node:url';
import type { Store } from '../gateway/store/store';
import { openGatewayStore, sellerUrlRefusalOf } from '../gateway/open-gateway-store';
import { describeStore, storeOptionsFromEnv } from '../gateway/store/store-config';
import { MemberCommandError, type MemberView } from '../gateway/directory/members';
import { httpMembersBackend, storeMembersBackend, type MembersBackend } from './members-backend';
import { internalApiClientFromEnv, isConnectionRefused } from './internal-api-client';
import { EnvironmentError } from '../shared/environment';

const USAGE = `usage: npm run members -- <command> [options] [--json]

  add        --id <member> --name <name> --seller-url <url> [member options]
  update     --id <member> [member options]          only the options given change
  list       [--status pending|live|suspended]
  show       --id <member>                           with locations, accounts, newest certificate
  suspend    --id <member> --reason <why>            serves no buyer from the next request
  reinstate  --id <member> [--reason <why>]          live with a passing certificate, else pending
  changes    --id <member> [--limit <n>]             who changed what, newest first
  locations  list|add|update --id <member> [--location <id> --description <text> --type store|warehouse]
  accounts   list|add|update --id <member> [--account <id> --description <text> --standing good|on_hold|credit_limit]

member options: --name, --seller-url, --auth none|bearer|basic, --token-file <file>, --username <name>,
  --password-file <file>, --integration <text>, --timeout-ms <n>, --reply-mode strict|lenient,
  --state-map <file.json>, --slo '<metric><op><value>' (repeatable, e.g. --slo 'p95<300ms')
every write: --operator <name> (default $USER), recorded in the change history.
Secrets are read from files, never from the command line. A member goes live only on a
passing certificate (npm run certification). Exit 0 done, 1 refused, 2 bad usage.`;

export interface MembersIo {
  backend: MembersBackend;
  out: (line: string) => void;
  err: (line: string) => void;
  /** Relative file options resolve against this. Default: process.cwd(). */
  cwd?: string;
  /** $USER, the default operator. */
  user?: string;
}

class UsageError extends Error {}

const MEMBER_OPTIONS = {
  id: { type: 'string' },
  name: { type: 'string' },
  'seller-url': { type: 'string' },
  auth: { type: 'string' },
  'token-file': { type: 'string' },
  username: { type: 'string' },
  'password-file': { type: 'string' },
  integration: { type: 'string' },
  'timeout-ms': { type: 'string' },
  'reply-mode': { type: 'string' },
  'state-map': { type: 'string' },
  slo: { type: 'string', multiple: true },
} as const satisfies ParseArgsConfig['options'];

const COMMON = {
  json: { type: 'boolean', default: false },
  operator: { type: 'string' },
} as const satisfies ParseArgsConfig['options'];

type Values = Record<string, string | boolean | string[] | undefined>;

function parse(args: string[], options: ParseArgsConfig['options']): Values {
  try {
    return parseArgs({ args, options: { ...COMMON, ...options }, strict: true, allowPositionals: false })
      .values as Values;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

function required(values: Values, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required`);
  return value.trim();
}

function operator(values: Values, io: MembersIo): string {
  const name = (values.operator as string | undefined) ?? io.user;
  if (name === undefined || name.trim() === '')
    throw new UsageError('--operator is required ($USER is not set): every write is recorded under a name');
  return name.trim();
}

async function fileText(io: MembersIo, option: string, file: string): Promise<string> {
  const path = resolve(io.cwd ?? process.cwd(), file);
  try {
    return (await readFile(path, 'utf8')).trim();
  } catch (error) {
    throw new MemberCommandError(
      'invalid',
      `cannot read --${option} ${path}: ${(error as NodeJS.ErrnoException).code}`,
    );
  }
}

/** The member fields the options give (only those given), as the writer takes them. */
async function memberBody(values: Values, io: MembersIo): Promise<Record<string, unknown>> {
  const body: Record<string, unknown> = {};
  if (values.name !== undefined) body.name = values.name;
  if (values['seller-url'] !== undefined) body.sellerUrl = values['seller-url'];
  if (values.integration !== undefined) body.integration = values.integration;
  if (values['reply-mode'] !== undefined) body.replyMode = values['reply-mode'];
  if (values['timeout-ms'] !== undefined) {
    const ms = Number(values['timeout-ms']);
    if (!Number.isInteger(ms)) throw new UsageError(`--timeout-ms must be a whole number of milliseconds`);
    body.timeoutMs = ms;
  }
  if (values.slo !== undefined) body.slos = values.slo;
  const kind = (values.auth as string | undefined) ?? (values['token-file'] !== undefined ? 'bearer' : undefined);
  if (kind !== undefined) {
    const auth: Record<string, string> = { kind };
    if (values['token-file'] !== undefined)
      auth.token = await fileText(io, 'token-file', values['token-file'] as string);
    if (values.username !== undefined) auth.username = values.username as string;
    if (values['password-file'] !== undefined)
      auth.password = await fileText(io, 'password-file', values['password-file'] as string);
    body.sellerAuth = auth;
  }
  if (values['state-map'] !== undefined) {
    const text = await fileText(io, 'state-map', values['state-map'] as string);
    try {
      body.stateMap = JSON.parse(text.replace(/^\uFEFF/, '')) as unknown;
    } catch (error) {
      throw new MemberCommandError(
        'invalid',
        `--state-map ${values['state-map']} is not JSON: ${(error as Error).message}`,
      );
    }
  }
  return body;
}

const memberLine = (m: MemberView) =>
  `${m.id}  ${m.status}  ${m.name}  ${m.sellerUrl}  auth ${m.sellerAuth.kind}  timeout ${m.timeoutMs} ms`;

function print(io: MembersIo, values: Values, result: unknown, text: () => string[]): void {
  if (values.json === true) io.out(JSON.stringify(result));
  else for (const line of text()) io.out(line);
}

async function memberCommand(command: string, args: string[], io: MembersIo): Promise<void> {
  const b = io.backend;
  switch (command) {
    case 'add':
    case 'update': {
      const values = parse(args, MEMBER_OPTIONS);
      const id = required(values, 'id');
      const who = operator(values, io);
      const fields = await memberBody(values, io);
      const member = command === 'add' ? await b.create({ id, ...fields }, who) : await b.update(id, fields, who);
      return print(io, values, member, () => [`${command === 'add' ? 'added' : 'updated'} ${memberLine(member)}`]);
    }
    case 'list': {
      const values = parse(args, { status: { type: 'string' } });
      const members = await b.list({ status: values.status as string | undefined });
      return print(io, values, members, () => (members.length === 0 ? ['no members'] : members.map(memberLine)));
    }
    case 'show': {
      const values = parse(args, { id: { type: 'string' } });
      const m = await b.show(required(values, 'id'));
      return print(io, values, m, () => [
        memberLine(m),
        `integration ${m.integration ?? '-'}; reply mode ${m.replyMode}; state map ${m.stateMap === null ? 'none' : 'set'}; SLOs ${m.slos?.join(', ') ?? 'none'}`,
        `certificate ${m.certificate === null ? 'none' : `${m.certificate.verdict} (contract ${m.certificate.contractVersion}, ${m.certificate.issuedAt})`}`,
        ...m.locations.map((l) => `location ${l.id}  ${l.type === 2 ? 'warehouse' : 'store'}  ${l.description}`),
        ...m.accounts.map((a) => `account ${a.accountId}  ${a.standing}  ${a.description}`),
      ]);
    }
    case 'suspend':
    case 'reinstate': {
      const values = parse(args, { id: { type: 'string' }, reason: { type: 'string' } });
      const id = required(values, 'id');
      const who = operator(values, io);
      const reason = command === 'suspend' ? required(values, 'reason') : (values.reason as string | undefined);
      const body = reason === undefined ? {} : { reason };
      const m = command === 'suspend' ? await b.suspend(id, body, who) : await b.reinstate(id, body, who);
      return print(io, values, m, () => [`${m.id} is ${m.status}`]);
    }
    case 'changes': {
      const values = parse(args, { id: { type: 'string' }, limit: { type: 'string' } });
      const limit = values.limit === undefined ? undefined : Number(values.limit);
      if (limit !== undefined && !Number.isInteger(limit)) throw new UsageError('--limit must be a whole number');
      const changes = await b.changes(required(values, 'id'), limit);
      return print(io, values, changes, () =>
        changes.map((c) => `${c.at}  ${c.actor}  ${c.action}  ${JSON.stringify(c.detail)}`),
      );
    }
    default:
      throw new UsageError(`unknown command ${command}`);
  }
}

const LOCATION_TYPES: Record<string, number> = { store: 1, warehouse: 2, '1': 1, '2': 2 };

async function partCommand(part: 'locations' | 'accounts', args: string[], io: MembersIo): Promise<void> {
  const [action, ...rest] = args;
  const key = part === 'locations' ? 'location' : 'account';
  const values = parse(rest, {
    id: { type: 'string' },
    [key]: { type: 'string' },
    description: { type: 'string' },
    ...(part === 'locations' ? { type: { type: 'string' } } : { standing: { type: 'string' } }),
  });
  const memberId = required(values, 'id');
  const b = io.backend;
  const body: Record<string, unknown> = {};
  if (values.description !== undefined) body.description = values.description;
  if (values.standing !== undefined) body.standing = values.standing;
  if (values.type !== undefined) {
    body.type = LOCATION_TYPES[values.type as string];
    if (body.type === undefined) throw new UsageError(`--type must be store or warehouse, not ${values.type}`);
  }
  if (action === 'list') {
    const rows = part === 'locations' ? await b.listLocations(memberId) : await b.listAccounts(memberId);
    return print(io, values, rows, () => rows.map((r) => JSON.stringify(r)));
  }
  if (action !== 'add' && action !== 'update')
    throw new UsageError(`${part}: list, add or update, not ${action ?? 'nothing'}`);
  const who = operator(values, io);
  const partId = required(values, key);
  const result =
    part === 'locations'
      ? action === 'add'
        ? await b.addLocation(memberId, { id: partId, ...body }, who)
        : await b.updateLocation(memberId, partId, body, who)
      : action === 'add'
        ? await b.addAccount(memberId, { accountId: partId, ...body }, who)
        : await b.updateAccount(memberId, partId, body, who);
  return print(io, values, result, () => [
    `${action === 'add' ? 'added' : 'updated'} ${key} ${JSON.stringify(result)}`,
  ]);
}

/** Runs one members command; returns the exit code (0 done, 1 refused, 2 bad usage). */
export async function runMembersCommand(argv: string[], io: MembersIo): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
      io.out(USAGE);
      return command === undefined ? 2 : 0;
    }
    if (command === 'locations' || command === 'accounts') await partCommand(command, rest, io);
    else await memberCommand(command, rest, io);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`members: ${error.message}\n${USAGE}`);
      return 2;
    }
    if (error instanceof MemberCommandError) {
      io.err(`members: ${error.message}`);
      for (const p of error.problems) io.err(`  ${p.path || '(request)'}: ${p.message}${p.rule ? ` [${p.rule}]` : ''}`);
      return 1;
    }
    throw error;
  }
}

async function main() {
  const io = {
    out: (line: string) => console.log(line),
    err: (line: string) => console.error(line),
    user: process.env.USER,
  };
  const argv = process.argv.slice(2);
  // A running server first (npm start: the embedded store is its alone), else the store.
  const { baseUrl, token } = internalApiClientFromEnv();
  try {
    process.exitCode = await runMembersCommand(argv, { ...io, backend: httpMembersBackend(baseUrl, token) });
    return;
  } catch (error) {
    if (!isConnectionRefused(error)) throw error;
  }
  let store: Store;
  try {
    store = await openGatewayStore();
  } catch (error) {
    console.error(
      `members: cannot open the store (${describeStore(storeOptionsFromEnv())}): ${(error as Error).message}`,
    );
    process.exitCode = 1;
    return;
  }
  try {
    const backend = storeMembersBackend(store, { sellerUrlRefusal: sellerUrlRefusalOf(process.env) });
    process.exitCode = await runMembersCommand(argv, { ...io, backend });
  } finally {
    await store.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main().catch((error) => {
    // A variable set to something unusable is a usage error, said by its name.
    console.error(`members: ${error instanceof EnvironmentError ? error.message : ((error as Error).stack ?? error)}`);
    process.exitCode = error instanceof EnvironmentError ? 2 : 1;
  });
}
