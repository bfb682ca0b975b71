// npm run keys -- add --client <id> --kid <kid> --public-key <pem file> --user <username>
//                     [--algorithm RS256|ES256] [--name <client name>]
// npm run keys -- list [--json]
// npm run keys -- revoke --kid <kid>
//
// Registers, lists and revokes buyer systems' public keys in the gateway's store — the same
// store the gateway opens (DATABASE_URL, else GATEWAY_DATA_DIR, else var/pglite; seeded on a
// fresh install like the gateway's, unless GATEWAY_SEED=false). Asks the running internal
// API first (INTERNAL_API_URL, default http://127.0.0.1:$INTERNAL_PORT or 8081, credential
// INTERNAL_API_TOKEN or the development default), so it works beside `npm start` on the
// embedded store and the key works at once; opens the store itself when nothing answers.
// With PostgreSQL, other running gateways see a change at once (a NOTIFY their directory
// caches listen for; the cache TTL, 30 s, is the fallback).
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { pathToFileURL } from 'node:url';
import type { Store } from '../gateway/store/store';
import type { Directory, KeyAlgorithm } from '../gateway/directory/directory';
import { openGatewayStore } from '../gateway/open-gateway-store';
import { describeStore, storeOptionsFromEnv } from '../gateway/store/store-config';
import { KEY_ALGORITHMS, KeyCommandError } from '../gateway/directory/api-keys';
import { httpKeysBackend, storeKeysBackend, type KeysBackend } from './keys-backend';
import { internalApiClientFromEnv, isConnectionRefused } from './internal-api-client';
import { EnvironmentError } from '../shared/environment';

const USAGE = `usage:
  npm run keys -- add --client <id> --kid <kid> --public-key <pem file> --user <username> [--user <username>…]
                      [--algorithm RS256|ES256] [--name <client display name>]
  npm run keys -- list [--json]
  npm run keys -- revoke --kid <kid>`;

export interface KeysIo {
  /** Where the keys live: a running server's internal API or the store; default: `store`. */
  backend?: KeysBackend;
  store?: Store;
  /** When given, invalidated after a write (an in-process gateway sees it at once). */
  directory?: Directory;
  out: (line: string) => void;
  err: (line: string) => void;
  /** Relative --public-key paths resolve against this. Default: process.cwd(). */
  cwd?: string;
}

class UsageError extends Error {}

function backendOf(io: KeysIo): KeysBackend {
  if (io.backend !== undefined) return io.backend;
  if (io.store === undefined) throw new Error('keys: neither a backend nor a store given');
  return storeKeysBackend(io.store, io.directory);
}

/** Runs one keys command; returns the exit code (0 ok, 1 refused, 2 bad usage). */
export async function runKeysCommand(argv: string[], io: KeysIo): Promise<number> {
  try {
    const [command, ...rest] = argv;
    switch (command) {
      case 'add':
        await add(rest, io);
        return 0;
      case 'list':
        await list(rest, io);
        return 0;
      case 'revoke':
        await revoke(rest, io);
        return 0;
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        io.out(USAGE);
        return command === undefined ? 2 : 0;
      default:
        throw new UsageError(`unknown command ${command}`);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`keys: ${error.message}\n${USAGE}`);
      return 2;
    }
    if (error instanceof KeyCommandError) {
      io.err(`keys: ${error.message}`);
      return 1;
    }
    throw error;
  }
}

function parse(args: string[], options: ParseArgsConfig['options']): Record<string, unknown> {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: false }).values as Record<string, unknown>;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

function required(values: Record<string, unknown>, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required`);
  return value.trim();
}

async function add(args: string[], io: KeysIo) {
  const values = parse(args, {
    client: { type: 'string' },
    kid: { type: 'string' },
    'public-key': { type: 'string' },
    user: { type: 'string', multiple: true },
    algorithm: { type: 'string', default: 'RS256' },
    name: { type: 'string' },
  });
  const clientId = required(values, 'client');
  const kid = required(values, 'kid');
  const file = resolve(io.cwd ?? process.cwd(), required(values, 'public-key'));
  const algorithm = String(values.algorithm).toUpperCase() as KeyAlgorithm;
  if (!KEY_ALGORITHMS.includes(algorithm))
    throw new UsageError(`--algorithm must be RS256 or ES256, not ${values.algorithm}`);
  let pem: string;
  try {
    pem = await readFile(file, 'utf8');
  } catch (error) {
    throw new KeyCommandError(
      `cannot read --public-key ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  const registered = await backendOf(io).register({
    clientId,
    kid,
    publicKeyPem: pem,
    algorithm,
    usernames: (values.user as string[] | undefined)?.map((u) => u.trim()),
    clientName: values.name as string | undefined,
  });
  io.out(
    `registered ${registered.algorithm} key ${registered.kid} for ${registered.createdClient ? 'new ' : ''}client ` +
      `${registered.clientId} (acts for: ${registered.linkedUsernames.join(', ') || 'nobody'})`,
  );
}

async function list(args: string[], io: KeysIo) {
  const values = parse(args, { json: { type: 'boolean', default: false } });
  const keys = await backendOf(io).list();
  if (values.json) {
    io.out(JSON.stringify(keys));
    return;
  }
  if (keys.length === 0) {
    io.out('no keys registered');
    return;
  }
  const rows = keys.map((k) => [
    k.kid,
    k.clientId,
    k.algorithm,
    k.active ? 'active' : `revoked ${k.revokedAt?.toISOString() ?? ''}`,
    k.linkedUsernames.join(',') || '-',
  ]);
  const header = ['KID', 'CLIENT', 'ALG', 'STATE', 'USERS'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  for (const row of [header, ...rows])
    io.out(
      row
        .map((cell, i) => cell.padEnd(widths[i]))
        .join('  ')
        .trimEnd(),
    );
}

async function revoke(args: string[], io: KeysIo) {
  const values = parse(args, { kid: { type: 'string' } });
  const revoked = await backendOf(io).revoke(required(values, 'kid'));
  io.out(`revoked key ${revoked.kid} at ${revoked.revokedAt.toISOString()}`);
}

async function main() {
  const io = { out: (line: string) => console.log(line), err: (line: string) => console.error(line) };
  // A running server first (npm start: the embedded store is its alone), else the store.
  const { baseUrl, token } = internalApiClientFromEnv();
  try {
    process.exitCode = await runKeysCommand(process.argv.slice(2), { ...io, backend: httpKeysBackend(baseUrl, token) });
    return;
  } catch (error) {
    if (!isConnectionRefused(error)) throw error;
  }
  const options = storeOptionsFromEnv();
  let store: Store;
  try {
    store = await openGatewayStore();
  } catch (error) {
    console.error(`keys: cannot open the store (${describeStore(options)}): ${(error as Error).message}`);
    process.exitCode = 1;
    return;
  }
  try {
    process.exitCode = await runKeysCommand(process.argv.slice(2), {
      store,
      out: (line) => console.log(line),
      err: (line) => console.error(line),
    });
  } finally {
    await store.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main().catch((error) => {
    // A variable set to something unusable is a usage error, said by its name.
    console.error(`keys: ${error instanceof EnvironmentError ? error.message : ((error as Error).stack ?? error)}`);
    process.exitCode = error instanceof EnvironmentError ? 2 : 1;
  });
}
