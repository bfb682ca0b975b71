import { Hono, type Context } from 'hono';
import type { Store } from '../store/store';
import type { Directory } from '../directory/directory';
import type { Clock } from '../clock';
import { readJsonBody } from '../../shared/http/json-body';
import {
  InternalConflict,
  InternalNotFound,
  InternalRequestRejected,
  internalBodyNotJson,
} from './internal-api-errors';
import { MemberCommandError, memberWriter, operatorOf } from '../directory/members';

// Members, their locations and accounts through the internal API (docs/gateway/members.md):
// the same memberWriter `npm run members` runs on the store. Every write names who makes it in
// the X-Operator header (recorded in the change history); the gateway's directory in this
// process is dropped after each, and every other instance's on commit.

export const OPERATOR_HEADER = 'X-Operator';
const MAX_CHANGES = 1000;

/** The writer's refusals as the internal API's answers: 400, 404, 409 with every problem. */
export function memberRefusal(error: unknown): never {
  if (!(error instanceof MemberCommandError)) throw error;
  const details = error.problems.map((p) => ({ ...p }));
  switch (error.kind) {
    case 'invalid':
      throw new InternalRequestRejected(error.message, details);
    case 'not-found':
      throw new InternalNotFound(error.message, details);
    case 'conflict':
      throw new InternalConflict(error.message, details);
  }
}

/** A POST whose body may be left out (reinstate): no body reads as {}. */
const optionalBody = (c: Context) => readJsonBody(c, internalBodyNotJson, { emptyAs: {} });

function limitOf(text: string | undefined): number {
  if (text === undefined) return 50;
  const n = /^\d{1,4}$/.test(text) ? Number(text) : NaN;
  if (!(n >= 1 && n <= MAX_CHANGES))
    throw new InternalRequestRejected(`limit must be an integer from 1 to ${MAX_CHANGES}`, [
      { path: 'query:limit', message: `1 to ${MAX_CHANGES}` },
    ]);
  return n;
}

export function memberRoutes(deps: {
  store: Store;
  directory?: Pick<Directory, 'invalidate'>;
  clock?: Clock;
  sellerUrlRefusal?: (sellerUrl: string) => Promise<string | undefined>;
}): Hono {
  const members = memberWriter(deps);
  const app = new Hono();
  const actor = (c: Context) => {
    try {
      return operatorOf(c.req.header(OPERATOR_HEADER), `header:${OPERATOR_HEADER}`);
    } catch (error) {
      return memberRefusal(error);
    }
  };
  const body = (c: Context) => readJsonBody(c, internalBodyNotJson);
  const id = (c: Context) => c.req.param('id') as string;

  app.get('/', async (c) => c.json(await members.list({ status: c.req.query('status') }).catch(memberRefusal)));
  app.post('/', async (c) => {
    const who = actor(c);
    return c.json(await members.create(await body(c), who).catch(memberRefusal), 201);
  });
  app.get('/:id', async (c) => c.json(await members.show(id(c)).catch(memberRefusal)));
  app.patch('/:id', async (c) => {
    const who = actor(c);
    return c.json(await members.update(id(c), await body(c), who).catch(memberRefusal));
  });
  app.post('/:id/suspend', async (c) => {
    const who = actor(c);
    return c.json(await members.suspend(id(c), await body(c), who).catch(memberRefusal));
  });
  app.post('/:id/reinstate', async (c) => {
    const who = actor(c);
    return c.json(await members.reinstate(id(c), await optionalBody(c), who).catch(memberRefusal));
  });
  app.get('/:id/changes', async (c) =>
    c.json(await members.changes(id(c), limitOf(c.req.query('limit'))).catch(memberRefusal)),
  );

  app.get('/:id/locations', async (c) => c.json(await members.listLocations(id(c)).catch(memberRefusal)));
  app.post('/:id/locations', async (c) => {
    const who = actor(c);
    return c.json(await members.addLocation(id(c), await body(c), who).catch(memberRefusal), 201);
  });
  app.patch('/:id/locations/:locationId', async (c) => {
    const who = actor(c);
    const location = c.req.param('locationId');
    return c.json(await members.updateLocation(id(c), location, await body(c), who).catch(memberRefusal));
  });

  app.get('/:id/accounts', async (c) => c.json(await members.listAccounts(id(c)).catch(memberRefusal)));
  app.post('/:id/accounts', async (c) => {
    const who = actor(c);
    return c.json(await members.addAccount(id(c), await body(c), who).catch(memberRefusal), 201);
  });
  app.patch('/:id/accounts/:accountId', async (c) => {
    const who = actor(c);
    const account = c.req.param('accountId');
    return c.json(await members.updateAccount(id(c), account, await body(c), who).catch(memberRefusal));
  });
  return app;
}
