import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { streamSSE, type SSEStreamingApi } from 'hono/streaming';
import type { ExchangeFeed, ExchangeSummary, Verdict } from './exchange';
import { inspectorAccess } from './inspector-access';
import { failedAttempts } from '../shared/failed-attempts';
import { clientAddress } from '../shared/client-address';
import { inspectorPage, inspectorPageHeaders } from './inspector-page';
import { loginPage, loginPageHeaders } from './login-page';
import { guardedBy } from '../shared/http/request-guard';
import { sameOriginOnly } from '../shared/http/cross-site';
import { jsonContentType } from '../shared/http/json-content-type';

// The inspector as a Hono sub-app: mount it anywhere with app.route(path, inspector.app).
//   GET  <path>                  the page (or, behind a credential without a session, the login page)
//   GET  <path>/events           Server-Sent Events: `history` (the retained exchanges), then one `exchange` each
//   GET  <path>/exchanges        the retained summaries; ?service=&verdict=&rule= filter
//   GET  <path>/exchanges/:id    one exchange: request, reply, schema errors, broken rules, notes
//   POST <path>/session          {token} → session cookie (only with `credential`); wrong guesses
//                                are limited per client address (429 with Retry-After)

export interface InspectorOptions {
  feed: ExchangeFeed;
  /** Page title, e.g. "Mock seller — exchanges". */
  title?: string;
  /** When set, everything but the login page needs this credential (header) or a session made with it. */
  credential?: string;
  /** Open event streams end when this aborts (the owner is shutting down). */
  signal?: AbortSignal;
  /** Comment lines keeping idle event streams open through proxies; default 15 s. */
  heartbeatMs?: number;
  /** Wrong credentials (session form or header) one client address may present per minute; default 10. */
  attemptLimit?: number;
  /** Milliseconds since the epoch: session expiry and the attempt window; injected in tests. */
  clock?: () => number;
}

export interface Inspector {
  app: Hono;
  /** Ends every open event stream (a server's close() waits for them otherwise). */
  close(): void;
}

const VERDICTS: readonly Verdict[] = ['ok', 'broken', 'error'];

/** The path the page was served on, without a trailing slash: its API lives beneath it. */
const basePathOf = (c: Context) => c.req.path.replace(/\/+$/, '');

export function createInspector(options: InspectorOptions): Inspector {
  const { feed } = options;
  const title = options.title ?? 'Exchanges';
  const heartbeatMs = options.heartbeatMs ?? 15_000;
  const clock = options.clock ?? Date.now;
  const access = options.credential === undefined ? undefined : inspectorAccess(options.credential, clock);
  // A credential that can be guessed gets a bounded number of guesses per address.
  const attempts = failedAttempts({ limit: options.attemptLimit ?? 10, windowMs: 60_000, clock });
  const tooMany = (c: Context, seconds: number) => {
    c.header('retry-after', String(seconds));
    return c.json({ message: `too many wrong credentials from this address; retry after ${seconds} s` }, 429);
  };
  const streams = new Set<() => void>();
  const close = () => {
    for (const end of [...streams]) end();
  };
  options.signal?.addEventListener('abort', close, { once: true });

  const app = new Hono();

  app.get('/', (c) => {
    const basePath = basePathOf(c);
    if (access !== undefined && !access.allowed(c)) return c.body(loginPage(title, basePath), 200, loginPageHeaders);
    return c.body(inspectorPage(title, basePath), 200, inspectorPageHeaders);
  });

  if (access !== undefined) {
    // Only the login page (same origin, JSON) starts a session: another site cannot log a browser in.
    const ownPageOnly = guardedBy([sameOriginOnly(), jsonContentType], ({ status, rule, field, message }, c) => c.json({ message, path: field, rule }, status));
    app.post('/session', ownPageOnly, async (c) => {
      const address = clientAddress(c);
      const blocked = attempts.blockedFor(address);
      if (blocked > 0) return tooMany(c, blocked);
      let body: unknown;
      try {
        body = await c.req.json();
      } catch {
        return c.json({ message: 'the body must be JSON: {"token": "<credential>"}' }, 400);
      }
      const token = (body as { token?: unknown } | null)?.token;
      if (typeof token !== 'string' || token === '') return c.json({ message: 'token is required (a non-empty string)', path: '/token' }, 400);
      if (!access.startSession(c, token, basePathOf(c).replace(/\/session$/, ''))) {
        attempts.failed(address);
        return c.json({ message: 'wrong credential' }, 401);
      }
      return c.body(null, 204);
    });
    // The API's Authorization header is as guessable as the form: its wrong guesses count too.
    const guard: MiddlewareHandler = async (c, next) => {
      const address = clientAddress(c);
      const blocked = attempts.blockedFor(address);
      if (blocked > 0) return tooMany(c, blocked);
      if (c.req.header('authorization') !== undefined && !access.allowed(c)) attempts.failed(address);
      return access.guard(c, next);
    };
    app.use('/events', guard);
    app.use('/exchanges', guard);
    app.use('/exchanges/*', guard);
  }

  app.get('/exchanges', (c) => {
    const { service, verdict, rule } = c.req.query();
    if (verdict !== undefined && !VERDICTS.includes(verdict as Verdict)) {
      return c.json({ message: `verdict must be one of ${VERDICTS.join(', ')}, got '${verdict}'`, path: 'query:verdict' }, 400);
    }
    const exchanges = feed
      .recent()
      .filter(
        (s) =>
          (service === undefined || s.service === service) &&
          (verdict === undefined || s.verdict === verdict) &&
          (rule === undefined || s.rules.includes(rule)),
      );
    return c.json({ limit: feed.limit, count: exchanges.length, exchanges });
  });

  app.get('/exchanges/:id', (c) => {
    const raw = c.req.param('id');
    if (!/^\d+$/.test(raw)) return c.json({ message: `id must be a whole number, got '${raw}'`, path: 'path:id' }, 400);
    const detail = feed.detail(Number(raw));
    if (detail === undefined) return c.json({ message: `exchange ${raw} is not in the history (the last ${feed.limit} are kept)` }, 404);
    return c.json(detail);
  });

  app.get('/events', (c) => {
    const response = streamSSE(c, async (stream) => {
      const queue: ExchangeSummary[] = [];
      let resync = false;
      let wake: (() => void) | undefined;
      let ended = false;
      const end = () => {
        ended = true;
        wake?.();
      };
      streams.add(end);
      stream.onAbort(end);
      const unsubscribe = feed.subscribe((summary) => {
        // A reader too slow to keep up gets the history afresh rather than an unbounded queue.
        if (queue.length >= feed.limit) {
          queue.length = 0;
          resync = true;
        } else {
          queue.push(summary);
        }
        wake?.();
      });
      try {
        await sendHistory(stream, feed);
        while (!ended && !stream.aborted) {
          if (queue.length === 0 && !resync) {
            await new Promise<void>((resolve) => {
              const timer = setTimeout(resolve, heartbeatMs);
              wake = () => {
                clearTimeout(timer);
                resolve();
              };
            });
            wake = undefined;
            if (queue.length === 0 && !resync && !ended) await stream.write(': keep-alive\n\n');
            continue;
          }
          if (resync) {
            resync = false;
            await sendHistory(stream, feed);
          }
          for (const summary of queue.splice(0)) await stream.writeSSE({ event: 'exchange', id: String(summary.id), data: JSON.stringify(summary) });
        }
      } finally {
        unsubscribe();
        streams.delete(end);
      }
    });
    // The socket goes with the stream: a server closing would otherwise wait out keep-alive.
    response.headers.set('connection', 'close');
    return response;
  });

  return { app, close };
}

async function sendHistory(stream: SSEStreamingApi, feed: ExchangeFeed): Promise<void> {
  await stream.writeSSE({ event: 'history', data: JSON.stringify({ limit: feed.limit, exchanges: feed.recent() }) });
}
