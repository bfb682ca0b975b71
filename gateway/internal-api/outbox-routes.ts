import { Hono } from 'hono';
import type { Store } from '../store/store';
import type { Clock } from '../clock';
import type { DispatchSummary, OutboxDispatcher } from '../mail/outbox-dispatcher';
import { countMailByState, listMail, retryMailNow, type OutboxEntry, type OutboxState } from '../mail/outbox';
import { readJsonBody } from '../../shared/http/json-body';
import { InternalRequestRejected, internalBodyNotJson } from './internal-api-errors';

// The outbox as operators see it, for `npm run outbox` against a running server (an
// embedded PGlite store can be opened by one process only, so the script asks the server).

export interface OutboxView {
  counts: Record<OutboxState, number>;
  messages: (Omit<OutboxEntry, 'payload' | 'nextAttemptAt' | 'createdAt' | 'sentAt'> & {
    nextAttemptAt: string;
    createdAt: string;
    sentAt: string | null;
  })[];
}

export interface RetryOutcome {
  /** Messages made due now. */
  retried: number;
  /** The delivery pass run right after, when this process has a dispatcher. */
  dispatched: DispatchSummary | null;
}

const STATES: readonly string[] = ['pending', 'sent', 'failed'];

export const outboxView = (entry: OutboxEntry): OutboxView['messages'][number] => {
  const { payload: _payload, ...rest } = entry;
  return {
    ...rest,
    nextAttemptAt: entry.nextAttemptAt.toISOString(),
    createdAt: entry.createdAt.toISOString(),
    sentAt: entry.sentAt?.toISOString() ?? null,
  };
};

export function outboxRoutes(deps: { store: Store; clock: Clock; dispatcher?: OutboxDispatcher }): Hono {
  const app = new Hono();

  app.get('/', async (c) => {
    const state = c.req.query('state');
    if (state !== undefined && !STATES.includes(state))
      throw new InternalRequestRejected('state must be pending, sent or failed', [
        { path: '/state', message: 'must be pending, sent or failed' },
      ]);
    const limit = Math.min(1_000, Math.max(1, Number(c.req.query('limit') ?? 50) || 50));
    const view: OutboxView = {
      counts: await countMailByState(deps.store),
      messages: (await listMail(deps.store, { state: state as OutboxState | undefined, limit })).map(outboxView),
    };
    return c.json(view);
  });

  app.post('/retry', async (c) => {
    // No body retries every failed message; a body must be JSON.
    const body = (await readJsonBody(c, internalBodyNotJson, { emptyAs: {} })) as { ids?: unknown } | null;
    const ids = body?.ids;
    if (
      ids !== undefined &&
      !(Array.isArray(ids) && ids.every((id) => Number.isSafeInteger(id) && (id as number) > 0))
    ) {
      throw new InternalRequestRejected('ids must be a list of message ids', [
        { path: '/ids', message: 'must be a list of message ids' },
      ]);
    }
    const retried = await retryMailNow(deps.store, (ids as number[] | undefined) ?? 'all', new Date(deps.clock()));
    const outcome: RetryOutcome = {
      retried,
      dispatched: deps.dispatcher ? await deps.dispatcher.deliverDueNow() : null,
    };
    return c.json(outcome);
  });

  return app;
}
