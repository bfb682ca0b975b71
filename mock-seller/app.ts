import { setMaxListeners } from 'node:events';
import { Hono, type Context } from 'hono';
import type { Scenario } from '../contracts/schemas/scenario';
import { adminRoutes } from './admin-routes';
import type { MockSellerControl } from './mock-seller-control';
import { documentRoutes, sellerApiDocumentRoute } from './document-routes';
import { MockSellerError, RequestRefusedError } from './errors';
import { guardedBy } from '../shared/http/request-guard';
import { sameOriginOnly } from '../shared/http/cross-site';
import { jsonContentType } from '../shared/http/json-content-type';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { createFaultRegistry } from './fault-registry';
import { createJournal } from './journal';
import { createLoadModel } from './load-model';
import { journalFeed } from './journal-feed';
import { createInspector } from '../inspector/inspector-app';
import { orderNumbers } from './place-order';
import { createReplyCache } from './reply-cache';
import { setUpProviderState } from './provider-states';
import { checkScenario } from './scenario-file';
import { shiftRouteTimes } from './route-time-shift';
import type { MockSellerEnv } from './mock-seller-env';
import type { SellerLiveState } from './seller-live-state';
import { indexScenario } from './seller-data';
import { sellerEndpoint } from './seller-endpoint';

export interface MockSellerOptions {
  /** Journal entries kept (oldest dropped first). Default 1000. */
  journalLimit?: number;
  /** Base of link_url in invoices and statements; the request's own origin when unset. */
  publicUrl?: string;
}

export interface MockSeller extends MockSellerControl {
  app: Hono<MockSellerEnv>;
  /** Stops waiting latencies and lets hanging requests go; the server is closed by its owner. */
  close(): void;
}

const loadModelOf = (scenario: Scenario) => (scenario.load === undefined ? undefined : createLoadModel(scenario.load));

function createLiveState(base: Scenario, options: MockSellerOptions, closing: AbortSignal): SellerLiveState {
  return {
    data: indexScenario(base),
    faults: createFaultRegistry(),
    journal: createJournal(options.journalLimit ?? 1000),
    replies: createReplyCache(),
    orders: [],
    nextOrderNumber: orderNumbers(),
    hanging: new Set(),
    closing,
    load: loadModelOf(base),
    publicUrl: options.publicUrl?.replace(/\/$/, ''),
  };
}

const releaseHanging = (state: SellerLiveState) => {
  for (const release of [...state.hanging]) release();
};

/** The in-process handles over the live state; `base` is the loaded scenario, which loadScenario replaces. */
function controlOf(state: SellerLiveState, base: Scenario): MockSellerControl {
  const resetData = () => {
    state.data = indexScenario(base);
    state.orders.length = 0;
  };
  const control: MockSellerControl = {
    get data() {
      return state.data;
    },
    journal: state.journal,
    faults: state.faults,
    get orders() {
      return state.orders;
    },
    loadScenario(next) {
      base = shiftRouteTimes(checkScenario(next));
      state.load = loadModelOf(base);
      control.reset();
      return base;
    },
    reset() {
      resetData();
      state.faults.clear();
      state.journal.clear();
      releaseHanging(state);
    },
    providerState(name, params, action) {
      if (action === 'teardown') {
        resetData();
        return { params: {} };
      }
      const result = setUpProviderState(state.data.scenario, name, params);
      state.data = indexScenario(checkScenario(result.scenario, `provider state '${name}'`));
      return { params: result.params };
    },
    releaseHanging: () => releaseHanging(state),
    get hangingCount() {
      return state.hanging.size;
    },
  };
  return control;
}

/** Every failure kind mapped to a response here, and nowhere else. */
function failureResponse(error: Error, c: Context<MockSellerEnv>): Response {
  if (error instanceof MockSellerError)
    return c.json(
      error.issues === undefined ? { message: error.message } : { message: error.message, errors: error.issues },
      error.httpStatus as ContentfulStatusCode,
    );
  if (error instanceof HTTPException)
    return c.json({ message: error.message || `the request was refused (HTTP ${error.status})` }, error.status);
  console.error('mock seller: unexpected error', error);
  return c.json({ message: 'mock seller internal error' }, 500);
}

function routes(
  state: SellerLiveState,
  control: MockSellerControl,
  options: MockSellerOptions,
  closing: AbortSignal,
): Hono<MockSellerEnv> {
  const app = new Hono<MockSellerEnv>();
  app.post('/seller', sellerEndpoint(state));
  app.route('/documents', documentRoutes(state));
  app.get('/openapi.json', sellerApiDocumentRoute(options.publicUrl?.replace(/\/$/, '')));
  // The control API (and the inspector beneath it) is JSON only and not for other sites: a
  // cross-site form could otherwise change the faults or reset the mock.
  app.use(
    '/__admin/*',
    guardedBy(
      [sameOriginOnly({ alsoOwn: options.publicUrl === undefined ? [] : [options.publicUrl] }), jsonContentType],
      ({ status, rule, field, detail, message }) =>
        new RequestRefusedError(status, message, [{ keyword: rule, path: field, message: detail }]),
    ),
  );
  // The live inspector page over the journal; its event streams end when the seller closes.
  app.route(
    '/__admin/ui',
    createInspector({ feed: journalFeed(state.journal), title: 'Mock seller — exchanges', signal: closing }).app,
  );
  app.route('/__admin', adminRoutes(control));
  app.get('/health', (c) => c.json({ status: 'ok', scenario: state.data.scenario.name }));
  app.onError(failureResponse);
  app.notFound((c) =>
    c.json({ message: `no route ${c.req.method} ${c.req.path}; the seller endpoint is POST /seller` }, 404),
  );
  return app;
}

/**
 * A seller system built from a scenario: `POST /seller` (every forwarded operation),
 * `GET /documents/...` (invoice and statement copies), `GET /openapi.json` (the seller API
 * document), `/__admin` (control), `GET /health`.
 */
export function createMockSeller(scenario: unknown, options: MockSellerOptions = {}): MockSeller {
  const base = shiftRouteTimes(checkScenario(scenario));
  const closing = new AbortController();
  // Every request waiting out a latency or a service time listens for the close: not a leak.
  setMaxListeners(0, closing.signal);
  const state = createLiveState(base, options, closing.signal);
  const control = controlOf(state, base);
  return {
    ...control,
    // Getters must stay live, so they are re-exposed rather than copied by the spread.
    get data() {
      return state.data;
    },
    get orders() {
      return state.orders;
    },
    get hangingCount() {
      return state.hanging.size;
    },
    app: routes(state, control, options, closing.signal),
    close() {
      closing.abort();
      releaseHanging(state);
    },
  };
}
