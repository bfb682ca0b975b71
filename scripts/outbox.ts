// npm run outbox [-- --state pending|sent|failed] [--limit <n>] [--json]
//     the mail outbox: how many messages are pending, sent, failed; each with its attempts,
//     next attempt and last error
// npm run outbox -- retry [<id>…]
//     makes the named (default: every) pending or failed message due now and delivers it now;
//     exit code 1 when any of them still could not be sent
//
// Asks the running internal API first (INTERNAL_API_URL, default http://127.0.0.1:$INTERNAL_PORT
// or 8081, credential INTERNAL_API_TOKEN or the development default): with the embedded store
// only that process may open it. When nothing answers there, opens the store itself
// (DATABASE_URL, else GATEWAY_DATA_DIR, else var/pglite) and delivers with the mailer the
// environment names (MAIL_TRANSPORT, SMTP_URL, MAIL_OUTBOX_DIR).
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { request } from 'undici';
import type { Store } from '../gateway/store/store';
import type { OutboxState } from '../gateway/mail/outbox';
import { countMailByState, listMail, retryMailNow } from '../gateway/mail/outbox';
import { createOutboxDispatcher } from '../gateway/mail/outbox-dispatcher';
import type { Mailer } from '../gateway/mail/mailer';
import { outboxView, type OutboxView, type RetryOutcome } from '../gateway/internal-api/outbox-routes';
import { userMailComposers } from '../gateway/internal-api/welcome-email';
import { internalApiClientFromEnv, isConnectionRefused } from './internal-api-client';
import { EnvironmentError } from '../shared/environment';

const USAGE = `usage:
  npm run outbox [-- --state pending|sent|failed] [--limit <n>] [--json]
  npm run outbox -- retry [<message id>…]`;

/** Where the outbox is read and retried: the running internal API, or the store itself. */
export interface OutboxBackend {
  readonly description: string;
  view(state: OutboxState | undefined, limit: number): Promise<OutboxView>;
  retry(ids: number[] | 'all'): Promise<RetryOutcome>;
}

/** The internal API's /internal/outbox routes. Rejects with code ECONNREFUSED when nothing listens. */
export function httpOutboxBackend(baseUrl: string, token: string): OutboxBackend {
  const call = async <T>(path: string, init: { method: 'GET' | 'POST'; body?: string }): Promise<T> => {
    const res = await request(`${baseUrl}/internal/outbox${path}`, {
      ...init,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    });
    const body = (await res.body.json()) as T & { message?: string };
    if (res.statusCode !== 200) throw new Error(`internal API answered ${res.statusCode}: ${body.message ?? ''}`);
    return body;
  };
  return {
    description: `internal API ${baseUrl}`,
    view: (state, limit) =>
      call<OutboxView>(`?${new URLSearchParams({ limit: String(limit), ...(state ? { state } : {}) })}`, {
        method: 'GET',
      }),
    retry: (ids) =>
      call<RetryOutcome>('/retry', { method: 'POST', body: JSON.stringify(ids === 'all' ? {} : { ids }) }),
  };
}

/** The store opened directly; retries are delivered by a one-off dispatcher pass. */
export function storeOutboxBackend(
  store: Store,
  mailer: Mailer,
  from: string,
  clock: () => number = Date.now,
): OutboxBackend {
  return {
    description: `store (${mailer.description})`,
    async view(state, limit) {
      return {
        counts: await countMailByState(store),
        messages: (await listMail(store, { state, limit })).map(outboxView),
      };
    },
    async retry(ids) {
      const retried = await retryMailNow(store, ids, new Date(clock()));
      const dispatcher = createOutboxDispatcher({
        store,
        mailer,
        clock,
        from,
        composers: userMailComposers,
        log: () => {},
      });
      return { retried, dispatched: await dispatcher.runOnce() };
    },
  };
}

export interface OutboxIo {
  backend: OutboxBackend;
  out: (line: string) => void;
  err: (line: string) => void;
}

const STATES = ['pending', 'sent', 'failed'];

function table(view: OutboxView): string[] {
  const { counts } = view;
  const lines = [`pending ${counts.pending} · sent ${counts.sent} · failed ${counts.failed}`];
  if (view.messages.length === 0) return lines;
  const rows = [['id', 'state', 'attempts', 'kind', 'recipient', 'created', 'next attempt / sent', 'last error']];
  for (const m of view.messages) {
    rows.push([
      String(m.id),
      m.state,
      String(m.attempts),
      m.kind,
      m.recipient,
      m.createdAt,
      m.state === 'sent' ? (m.sentAt ?? '') : m.state === 'pending' ? m.nextAttemptAt : '—',
      m.lastError ?? '',
    ]);
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return [
    ...lines,
    ...rows.map((r) =>
      r
        .map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i])))
        .join('  ')
        .trimEnd(),
    ),
  ];
}

/** Runs one outbox command; returns the exit code (0 ok, 1 something not delivered, 2 bad usage). */
export async function runOutboxCommand(argv: string[], io: OutboxIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        state: { type: 'string' },
        limit: { type: 'string' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    io.err(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.out(USAGE);
    return 0;
  }
  const [command, ...rest] = positionals;

  if (command === undefined || command === 'list') {
    const state = values.state;
    if (state !== undefined && !STATES.includes(state)) {
      io.err(`--state must be pending, sent or failed\n${USAGE}`);
      return 2;
    }
    const limit = values.limit === undefined ? 50 : Number(values.limit);
    if (!Number.isInteger(limit) || limit < 1) {
      io.err(`--limit must be a positive integer\n${USAGE}`);
      return 2;
    }
    const view = await io.backend.view(state as OutboxState | undefined, limit);
    if (values.json) io.out(JSON.stringify(view));
    else for (const line of table(view)) io.out(line);
    return 0;
  }

  if (command === 'retry') {
    const ids = rest.map(Number);
    if (ids.some((id) => !Number.isSafeInteger(id) || id < 1)) {
      io.err(`message ids are positive integers\n${USAGE}`);
      return 2;
    }
    const outcome = await io.backend.retry(ids.length > 0 ? ids : 'all');
    if (values.json) io.out(JSON.stringify(outcome));
    else {
      io.out(`made due now: ${outcome.retried}`);
      const d = outcome.dispatched;
      io.out(
        d
          ? `delivered: ${d.sent}; will retry later: ${d.deferred}; failed for good: ${d.failed}`
          : 'no dispatcher in that process: delivered at its next pass',
      );
    }
    return outcome.dispatched && outcome.dispatched.deferred + outcome.dispatched.failed > 0 ? 1 : 0;
  }

  io.err(`unknown command ${command}\n${USAGE}`);
  return 2;
}

async function main(): Promise<void> {
  const env = process.env;
  const { baseUrl, token } = internalApiClientFromEnv(env);
  const io = { out: (line: string) => console.log(line), err: (line: string) => console.error(line) };
  const http = httpOutboxBackend(baseUrl, token);
  try {
    process.exitCode = await runOutboxCommand(process.argv.slice(2), { ...io, backend: http });
    return;
  } catch (error) {
    if (!isConnectionRefused(error)) throw error;
  }
  // Nothing listens: open the store ourselves.
  const { openGatewayStore } = await import('../gateway/open-gateway-store');
  const { mailerFromEnv, mailFromEnv } = await import('../gateway/mail/mailer-from-env');
  const store = await openGatewayStore(env);
  const mailer = mailerFromEnv(env);
  try {
    process.exitCode = await runOutboxCommand(process.argv.slice(2), {
      ...io,
      backend: storeOutboxBackend(store, mailer, mailFromEnv(env)),
    });
  } finally {
    mailer.close();
    await store.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    // A variable set to something unusable is a usage error.
    process.exitCode = error instanceof EnvironmentError ? 2 : 1;
  });
}
