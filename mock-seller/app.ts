import { setMaxListeners } from 'node:events';
import { Hono } from 'hono';
import type { HttpBindings } from '@hono/node-server';
import type { Scenario } from '../contracts/schemas/scenario';
import { adminRoutes } from './admin-routes';
import type { MockSellerControl } from './mock-seller-control';
import { documentRoutes } from './document-routes';
import { MockSellerError, RequestRefusedError } from './errors';
import { guardedBy } from '../shared/http/request-guard';
import { sameOriginOnly } from '../shared/http/cross-site';
import { jsonContentType } from '../shared/http/json-content-type';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { createFaultRegistry } from './faults';
import { createJournal } from './journal';
import { createLoadModel } from './load-model';
import { journalFeed } from './journal-feed';
import { createInspector } from '../inspector/inspector-app';
import { orderNumbers } from './place-order';
import { createReplyCache } from './reply-cache';
import { setUpProviderState } from './provider-states';
import { checkScenario } from './scenario-file';
import { shiftRouteTimes } from './route-time-shift';
import type { SellerContext } from './seller-live-state';
import { indexScenario } from './seller-data';
import { sellerEndpoint } from './seller-endpoint';

export interface MockSellerOptions {
  /** Journal entries kept (oldest dropped first). Default 1000. */
  journalLimit?: number;
  /** Base of link_url in invoices and statements; the request's own origin when unset. */
  publicUrl?: string;
}

export interface MockSeller extends MockSellerControl {
  app: Hono<{ Bindings: Partial<HttpBindings> | undefined }>;
  /** Stops waiting latencies and lets hanging requests go; the server is closed by its owner. */
  close(): void;
}

/**
 * A seller system built from a scenario: `POST /seller` (every forwarded operation),
 * `GET /documents/...` (invoice and statement copies), `/__admin` (control), `GET /health`.
 */
export function createMockSeller(scenario: unknown, options: MockSellerOptions = {}): MockSeller {
  let base: Scenario = shiftRouteTimes(checkScenario(scenario));
  const closing = new AbortController();
  // Every request waiting out a latency or a service time listens for the close: not a leak.
  setMaxListeners(0, closing.signal);
  const ctx: SellerContext = {
    data: indexScenario(base),
    faults: createFaultRegistry(),
    journal: createJournal(options.journalLimit ?? 1000),
    replies: createReplyCache(),
    orders: [],
    nextOrderNumber: orderNumbers(),
    hanging: new Set(),
    closing: closing.signal,
    publicUrl: options.publicUrl?.replace(/\/$/, ''),
  };
  const loadModelOf = (scenario: Scenario) => (scenario.load === undefined ? undefined : createLoadModel(scenario.load));
  ctx.load = loadModelOf(base);

  const releaseHanging = () => {
    for (const release of [...ctx.hanging]) release();
  };
  const resetData = () => {
    ctx.data = indexScenario(base);
    ctx.orders.length = 0;
  };

  const control: MockSellerControl = {
    get data() {
      return ctx.data;
    },
    journal: ctx.journal,
    faults: ctx.faults,
    get orders() {
      return ctx.orders;
    },
    loadScenario(next) {
      base = shiftRouteTimes(checkScenario(next));
      ctx.load = loadModelOf(base);
      control.reset();
      return base;
    },
    reset() {
      resetData();
      ctx.faults.clear();
      ctx.journal.clear();
      releaseHanging();
    },
    providerState(state, params, action) {
      if (action === 'teardown') {
        resetData();
        return { params: {} };
      }
      const result = setUpProviderState(ctx.data.scenario, state, params);
      ctx.data = indexScenario(checkScenario(result.scenario, `provider state '${state}'`));
      return { params: result.params };
    },
    releaseHanging,
    get hangingCount() {
      return ctx.hanging.size;
    },
  };

  const app = new Hono<{ Bindings: Partial<HttpBindings> | undefined }>();
  app.post('/seller', sellerEndpoint(ctx));
  app.route('/documents', documentRoutes(ctx));
  // The control API (and the inspector beneath it) is JSON only and not for other sites: a
  // cross-site form could otherwise change the faults or reset the mock.
  app.use(
    '/__admin/*',
    guardedBy(
      [sameOriginOnly({ alsoOwn: options.publicUrl === undefined ? [] : [options.publicUrl] }), jsonContentType],
      ({ status, rule, field, detail, message }) => new RequestRefusedError(status, message, [{ keyword: rule, path: field, message: detail }]),
    ),
  );
  // The live inspector page over the journal; its event streams end when the seller closes.
  app.route('/__admin/ui', createInspector({ feed: journalFeed(ctx.journal), title: 'Mock seller — exchanges', signal: closing.signal }).app);
  app.route('/__admin', adminRoutes(control));
  app.get('/health', (c) => c.json({ status: 'ok', scenario: ctx.data.scenario.name }));

  // Every failure kind mapped to a response here, and nowhere else.
  app.onError((error, c) => {
    if (error instanceof MockSellerError)
      return c.json(
        error.issues === undefined ? { message: error.message } : { message: error.message, errors: error.issues },
        error.httpStatus as ContentfulStatusCode,
      );
    if (error instanceof HTTPException) return c.json({ message: error.message || `the request was refused (HTTP ${error.status})` }, error.status);
    console.error('mock seller: unexpected error', error);
    return c.json({ message: 'mock seller internal error' }, 500);
  });
  app.notFound((c) => c.json({ message: `no route ${c.req.method} ${c.req.path}; the seller endpoint is POST /seller` }, 404));

  return {
    ...control,
    // Getters must stay live, so they are re-exposed rather than copied by the spread.
    get data() {
      return ctx.data;
    },
    get orders() {
      return ctx.orders;
    },
    get hangingCount() {
      return ctx.hanging.size;
    },
    app,
    close() {
      closing.abort();
      releaseHanging();
    },
  };
}
