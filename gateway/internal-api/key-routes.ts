import { Hono } from 'hono';
import type { Store } from '../store/store';
import type { Directory } from '../directory/directory';
import { readJsonBody } from '../../shared/http/json-body';
import { InternalRequestRejected as KeyRequestRejected, internalBodyNotJson } from './internal-api-errors';
import { MAX_ID_LENGTH, MAX_NAME_LENGTH, MAX_PEM_LENGTH, PLAIN_TEXT_PATTERN } from '../../contracts/schemas/common';
import {
  KEY_ALGORITHMS,
  KeyCommandError,
  listKeys,
  registerKey,
  revokeKey,
  type KeyListing,
  type RegisterKeyInput,
} from '../directory/api-keys';
import type { KeyAlgorithm } from '../directory/directory';

// Buyer systems' keys through the running server, for `npm run keys` beside a running
// gateway (an embedded PGlite store admits one process): the same registerKey / listKeys /
// revokeKey the command runs on the store, and the gateway's directory in this process is
// invalidated, so a new key works and a revoked one stops at once.

/** A listing as JSON carries its dates as ISO strings. */
export type KeyListingJson = Omit<KeyListing, 'createdAt' | 'revokedAt'> & {
  createdAt: string;
  revokedAt: string | null;
};

const PLAIN_TEXT = new RegExp(PLAIN_TEXT_PATTERN, 'u');

/** A string the store can hold (no NUL, no lone surrogate) and of a sane length, or a 400 naming it. */
function storable(path: string, value: string, max = MAX_ID_LENGTH): string {
  if (!PLAIN_TEXT.test(value))
    throw new KeyRequestRejected(`${path.slice(1)} must not contain NUL (U+0000) or an unpaired surrogate`, [
      { path, message: 'plain text' },
    ]);
  if ([...value].length > max)
    throw new KeyRequestRejected(`${path.slice(1)} must have at most ${max} characters`, [
      { path, message: `at most ${max} characters` },
    ]);
  return value;
}

const refused = (error: unknown): never => {
  throw error instanceof KeyCommandError ? new KeyRequestRejected(error.message) : error;
};

function registerInput(body: unknown): RegisterKeyInput {
  const b = (body ?? {}) as Record<string, unknown>;
  const text = (name: string) => {
    if (typeof b[name] !== 'string' || (b[name] as string).trim() === '')
      throw new KeyRequestRejected(`${name} is required (a non-empty string)`, [
        { path: `/${name}`, message: 'required' },
      ]);
    return storable(`/${name}`, (b[name] as string).trim(), name === 'publicKeyPem' ? MAX_PEM_LENGTH : MAX_ID_LENGTH);
  };
  const algorithm = (b.algorithm ?? 'RS256') as KeyAlgorithm;
  if (!KEY_ALGORITHMS.includes(algorithm))
    throw new KeyRequestRejected('algorithm must be RS256 or ES256', [
      { path: '/algorithm', message: 'RS256 or ES256' },
    ]);
  const usernames = b.usernames;
  if (usernames !== undefined && !(Array.isArray(usernames) && usernames.every((u) => typeof u === 'string'))) {
    throw new KeyRequestRejected('usernames must be a list of usernames', [
      { path: '/usernames', message: 'list of strings' },
    ]);
  }
  if (b.clientName !== undefined && typeof b.clientName !== 'string')
    throw new KeyRequestRejected('clientName must be a string', [{ path: '/clientName', message: 'string' }]);
  (usernames as string[] | undefined)?.forEach((u, i) => storable(`/usernames/${i}`, u));
  if (typeof b.clientName === 'string') storable('/clientName', b.clientName, MAX_NAME_LENGTH);
  return {
    clientId: text('clientId'),
    kid: text('kid'),
    publicKeyPem: text('publicKeyPem'),
    algorithm,
    usernames: usernames as string[] | undefined,
    clientName: b.clientName as string | undefined,
  };
}

export function keyRoutes(deps: { store: Store; directory?: Pick<Directory, 'invalidate'> }): Hono {
  const app = new Hono();
  const directory = deps.directory as Directory | undefined; // registerKey and revokeKey only invalidate it

  app.get('/', async (c) => {
    const keys = await listKeys(deps.store);
    return c.json(
      keys.map((k): KeyListingJson => ({
        ...k,
        createdAt: k.createdAt.toISOString(),
        revokedAt: k.revokedAt?.toISOString() ?? null,
      })),
    );
  });

  app.post('/', async (c) => {
    const body = await readJsonBody(c, internalBodyNotJson);
    return c.json(await registerKey(deps.store, registerInput(body), directory).catch(refused), 201);
  });

  app.post('/:kid/revoke', async (c) => {
    const revoked = await revokeKey(deps.store, storable('/kid', c.req.param('kid')), directory).catch(refused);
    return c.json({ kid: revoked.kid, revokedAt: revoked.revokedAt.toISOString() });
  });

  return app;
}
