import { Hono, type Handler, type MiddlewareHandler } from 'hono';
import type { Directory } from './directory/directory';
import type { SellerClient } from './seller-client/seller-client.types';
import type { Store } from './store/store';
import { systemClock, type Clock } from './clock';
import { gatewayConfig, type GatewayConfig } from './gateway-config';
import { createTokenVerifier } from './auth/token-verifier';
import { authenticate } from './auth/authenticate';
import { createOperations, type Operations } from './operations/index';
import { inEnvelope, operationAnswer, type OperationEdge } from './http/operation-route';
import { errorResponse } from './http/error-response';
import { healthRoute } from './http/health-route';
import { jsonLineLogger, type Logger } from './http/request-log';
import { checkMiddleware, type RequestCheck } from './http/request-check';
import { gatewayPipeline } from './http/gateway-pipeline';
import { answerHandler, mountBehindPipeline, pipelineHandler, type PipelineStep } from './http/pipeline';
import { OverallStatus } from '../contracts/index';
import { ALL_SPEEDUPS, type Speedups } from './speedups/speedups';
import type { ErrorEnvelope, GatewayEnv } from './http/gateway-env';
import type { Answer } from './http/pipeline';
import type { BuyerReplyOperation } from './float-json/buyer-reply-json';
import { createCatalog } from './catalog/catalog-queries';
import { createCatalogSearch } from './catalog/catalog-search';
import { catalogRoutes } from './catalog/catalog-routes';
import { catalogSessionRoutes } from './catalog-session/catalog-session-routes';
import { buyerOrCatalogSession } from './catalog-session/catalog-session-auth';
import { apiReferenceRoutes } from './api-reference/api-reference-routes';
import { rateLimitedAuth } from './protection/rate-limit';
import { failedAuthLimit } from './protection/failed-auth-limit';
import { failedAttempts } from '../shared/failed-attempts';
import { createRateLimiter } from './protection/rate-limiter';
import { clientRateLimits } from './protection/client-rate-limits';
import type { GatewayMetrics } from './metrics/gateway-metrics';
import type { ConformanceCounter } from './conformance/conformance-counter';
import { judgedReplyListener } from './conformance/judged-reply-listener';
import { protectSellerClient, sellerProtectionOptions } from './protection/protected-seller-client';
import { INQUIRY_ITEMS_RULE, itemCountLimit, ORDER_LINES_RULE } from './protection/item-count-limit';

// The gateway: a Hono app built from its dependencies. server.ts wires and listens; tests
// call app.request() in-process with a real store and a real mock seller.

export interface GatewayDeps {
  store: Store;
  directory: Directory;
  sellerClient: SellerClient;
  clock?: Clock;
  config?: GatewayConfig;
  /** One entry per request; defaults to a JSON line on stdout; false for none. */
  logger?: Logger | false;
  /** Public base URL for catalog launch URLs behind a proxy; default: the request's origin. */
  publicUrl?: string;
  /** Catalog session lifetime in seconds (default 15 minutes). */
  catalogTokenTtlSeconds?: number;
  /** Prometheus metrics of this gateway (served by the internal API's /metrics); none by default. */
  metrics?: GatewayMetrics;
  /** Production conformance: every judged reply counted (flushed to the store by its owner); none by default. */
  conformance?: ConformanceCounter;
  /** True once the instance is shutting down: /health answers 503 (reason `draining`). */
  draining?: () => boolean;
  /** What is done fast, what plainly (gateway/speedups/): every speed-up by default; plain for oracle tests. */
  speedups?: Speedups;
  /** Rewrites the steps every request passes (http/gateway-pipeline.ts): tests add a marker step or trace each one. */
  pipeline?: (steps: PipelineStep[]) => PipelineStep[];
}

export const V3_2 = '/json/federated/v3_2';
export const V3_1 = '/json/federated/v3_1';

export function createGateway(deps: GatewayDeps) {
  const clock = deps.clock ?? systemClock;
  const config = deps.config ?? gatewayConfig();
  const speed = deps.speedups ?? ALL_SPEEDUPS;
  const operations = operationsOf(deps, clock, config, speed);
  const auth = buyerAuth(deps, clock, config);
  const logger = deps.logger === false ? undefined : (deps.logger ?? jsonLineLogger);
  const defaults = gatewayPipeline({ logger, metrics: deps.metrics, maxBodyBytes: config.protection.maxBodyBytes });
  const steps = deps.pipeline === undefined ? defaults : deps.pipeline(defaults);

  // With the 'own-runner' speed-up the buyer operations are each one handler that runs the
  // pipeline itself and always answers, alone on its path; every other route (and, without
  // it, the buyer operations too) gets the same steps, from the same list, as middleware on
  // its own paths (http/pipeline.ts).
  const app = new Hono<GatewayEnv>();
  app.onError(errorResponse);
  const others = new Hono<GatewayEnv>();
  const edge = { checks: auth, forwardHeaders: config.forwardHeaders, writers: speed.buyerReplyWriters };
  const answers = buyerOperations(operations, edge, config);
  const handlers = new Map<BuyerReplyOperation, Handler<GatewayEnv>>();
  for (const { path, name, envelope } of BUYER_ROUTES) {
    // One handler per operation, whichever version's path it is on.
    let handler = handlers.get(name);
    if (speed.buyerRoutes === 'own-runner') {
      handler ??= inEnvelope(envelope, pipelineHandler(steps, answers[name]));
      app.post(path, handler);
    } else {
      handler ??= answerHandler(answers[name]);
      // Before the pipeline's middleware (mountBehindPipeline registers it), as in the own runner.
      if (envelope !== 'gateway')
        app.use(
          path,
          inEnvelope(envelope, (_c, next) => next()),
        );
      others.post(path, handler);
    }
    handlers.set(name, handler);
  }
  others.get('/health', healthRoute(deps.store, deps.draining));
  mountCatalog(others, deps, operations, checkMiddleware(auth), clock);
  others.route('/', apiReferenceRoutes());
  mountBehindPipeline(app, others, steps, (c) =>
    c.json(
      { status_code: OverallStatus.GeneralError, message: `no such endpoint: ${c.req.method} ${c.req.path}` },
      404,
    ),
  );
  return app;
}

/** The operations, calling sellers through the per-member protection (circuit breaker, cap on calls in flight). */
function operationsOf(deps: GatewayDeps, clock: Clock, config: GatewayConfig, speedups: Speedups): Operations {
  const metrics = deps.metrics;
  const sellerClient = protectSellerClient(deps.sellerClient, {
    ...sellerProtectionOptions(config.protection),
    clock,
    onOutcome: metrics && ((member, outcome) => metrics.sellerCall(member, outcome)),
    onRefused: metrics && ((member, reason) => metrics.sellerRefused(member, reason)),
  });
  metrics?.watchBreakers(sellerClient.breakers);
  return createOperations({
    store: deps.store,
    directory: deps.directory,
    sellerClient,
    clock,
    config,
    onViolations: metrics && ((member, list) => metrics.violations(member, list)),
    speedups,
    onReplyJudged: judgedReplyListener(metrics, deps.conformance),
  });
}

/**
 * Every buyer endpoint authenticates through this: the API client's rate limit comes with it.
 * Requests failing authentication are limited per client address first, before any token is checked.
 */
function buyerAuth(deps: GatewayDeps, clock: Clock, config: GatewayConfig): RequestCheck {
  const verified = authenticate(createTokenVerifier({ directory: deps.directory, clock, config: config.auth }));
  const authFailures = failedAttempts({ limit: config.protection.authFailureLimit, windowMs: 60_000, clock });
  return rateLimitedAuth(failedAuthLimit(verified, authFailures), {
    limiter: createRateLimiter({ windowMs: config.protection.rateLimitWindowMs, clock }),
    limits: clientRateLimits(deps.store, { defaultLimit: config.protection.rateLimit, ttlMs: 30_000, clock }),
    instances: config.protection.rateLimitInstances,
  });
}

/**
 * The four buyer operations under v3.2; v3.1 lists item inquiry
 * and place order with the same bodies: the very same answers.
 */
const BUYER_ROUTES = [
  { path: `${V3_2}/item_inquiry`, name: 'item-inquiry', envelope: 'gateway' },
  { path: `${V3_2}/place_order`, name: 'place-order', envelope: 'gateway' },
  { path: `${V3_2}/invoice`, name: 'invoice', envelope: 'invoices' },
  { path: `${V3_2}/statement`, name: 'statement', envelope: 'statements' },
  { path: `${V3_1}/item_inquiry`, name: 'item-inquiry', envelope: 'gateway' },
  { path: `${V3_1}/place_order`, name: 'place-order', envelope: 'gateway' },
] as const satisfies readonly { path: string; name: BuyerReplyOperation; envelope: ErrorEnvelope }[];

/** Each buyer operation's answer, with the item and line count limits in front of it. */
function buyerOperations(
  operations: Operations,
  edge: OperationEdge,
  config: GatewayConfig,
): Record<BuyerReplyOperation, Answer> {
  const limits = config.protection;
  return {
    'item-inquiry': operationAnswer(
      'item-inquiry',
      itemCountLimit(operations.itemInquiry, {
        limit: limits.maxInquiryItems,
        rule: INQUIRY_ITEMS_RULE,
        noun: 'items per item inquiry',
      }),
      edge,
    ),
    'place-order': operationAnswer(
      'place-order',
      itemCountLimit(operations.placeOrder, {
        limit: limits.maxOrderLines,
        rule: ORDER_LINES_RULE,
        noun: 'lines per order',
      }),
      edge,
    ),
    invoice: operationAnswer('invoice', operations.invoice, edge),
    statement: operationAnswer('statement', operations.statement, edge),
  };
}

/**
 * v3.1 catalog launch and cart, the catalog page and its session API; catalog and
 * search answer the buyer system (JWT) and the catalog page (session token) alike.
 */
function mountCatalog(
  app: Hono<GatewayEnv>,
  deps: GatewayDeps,
  operations: Operations,
  authMiddleware: MiddlewareHandler<GatewayEnv>,
  clock: Clock,
): void {
  const catalog = createCatalog(deps.store);
  const session = catalogSessionRoutes({
    store: deps.store,
    directory: deps.directory,
    catalog,
    itemInquiry: operations.itemInquiry,
    buyerAuth: authMiddleware,
    clock,
    tokenTtlSeconds: deps.catalogTokenTtlSeconds,
    publicUrl: deps.publicUrl,
  });
  app.route('/', session.routes);
  app.route(
    '/',
    catalogRoutes({
      catalog,
      search: createCatalogSearch(deps.store),
      auth: buyerOrCatalogSession(authMiddleware, session.sessionAuth),
    }),
  );
}

export type Gateway = ReturnType<typeof createGateway>;
