import { Hono, type Context, type MiddlewareHandler } from 'hono';
import type { BlankEnv } from 'hono/types';
import type { ExchangeFeed, Verdict } from './exchange';
import { exchangeEvents, openStreams } from './exchange-events';
import { inspectorAccess, type InspectorAccess } from './inspector-access';
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
  const clock = options.clock ?? Date.now;
  const access = options.credential === undefined ? undefined : inspectorAccess(options.credential, clock);
  const streams = openStreams();
  options.signal?.addEventListener('abort', streams.endAll, { once: true });

  const app = new Hono();
  app.get('/', (c) => {
    const basePath = basePathOf(c);
    if (access !== undefined && !access.allowed(c)) return c.body(loginPage(title, basePath), 200, loginPageHeaders);
    return c.body(inspectorPage(title, basePath), 200, inspectorPageHeaders);
  });
  if (access !== undefined) {
    // A credential that can be guessed gets a bounded number of guesses per address.
    const attempts = failedAttempts({ limit: options.attemptLimit ?? 10, windowMs: 60_000, clock });
    app.post('/session', ...sessionRoute(access, attempts));
    const guard = credentialGuard(access, attempts);
    app.use('/events', guard);
    app.use('/exchanges', guard);
    app.use('/exchanges/*', guard);
  }
  app.get('/exchanges', (c) => listExchanges(c, feed));
  app.get('/exchanges/:id', (c) => oneExchange(c, feed));
  app.get('/events', (c) => exchangeEvents(c, feed, options.heartbeatMs ?? 15_000, streams));
  return { app, close: streams.endAll };
}

type Attempts = ReturnType<typeof failedAttempts>;

const tooMany = (c: Context, seconds: number) => {
  c.header('retry-after', String(seconds));
  return c.json({ message: `too many wrong credentials from this address; retry after ${seconds} s` }, 429);
};

/** POST <path>/session {token}: a session cookie for the right credential; wrong guesses count against the address. */
function sessionRoute(access: InspectorAccess, attempts: Attempts) {
  // Only the login page (same origin, JSON) starts a session: another site cannot log a browser in.
  const ownPageOnly = guardedBy([sameOriginOnly(), jsonContentType], ({ status, rule, field, message }, c) =>
    c.json({ message, path: field, rule }, status),
  );
  const startSession = async (c: Context) => {
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
    if (typeof token !== 'string' || token === '')
      return c.json({ message: 'token is required (a non-empty string)', path: '/token' }, 400);
    if (!access.startSession(c, token, basePathOf(c).replace(/\/session$/, ''))) {
      attempts.failed(address);
      return c.json({ message: 'wrong credential' }, 401);
    }
    return c.body(null, 204);
  };
  return [ownPageOnly, startSession] as const;
}

/** The API's Authorization header is as guessable as the form: its wrong guesses count too. */
function credentialGuard(access: InspectorAccess, attempts: Attempts): MiddlewareHandler {
  return async (c, next) => {
    const address = clientAddress(c);
    const blocked = attempts.blockedFor(address);
    if (blocked > 0) return tooMany(c, blocked);
    if (c.req.header('authorization') !== undefined && !access.allowed(c)) attempts.failed(address);
    return access.guard(c, next);
  };
}

/** GET <path>/exchanges?service=&verdict=&rule=: the retained summaries that match. */
function listExchanges(c: Context, feed: ExchangeFeed) {
  const { service, verdict, rule } = c.req.query();
  if (verdict !== undefined && !VERDICTS.includes(verdict as Verdict)) {
    return c.json(
      { message: `verdict must be one of ${VERDICTS.join(', ')}, got '${verdict}'`, path: 'query:verdict' },
      400,
    );
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
}

/** GET <path>/exchanges/:id: one exchange in full. */
function oneExchange(c: Context<BlankEnv, '/exchanges/:id'>, feed: ExchangeFeed) {
  const raw = c.req.param('id');
  if (!/^\d+$/.test(raw)) return c.json({ message: `id must be a whole number, got '${raw}'`, path: 'path:id' }, 400);
  const detail = feed.detail(Number(raw));
  if (detail === undefined)
    return c.json({ message: `exchange ${raw} is not in the history (the last ${feed.limit} are kept)` }, 404);
  return c.json(detail);
}
