import { Hono } from 'hono';
import type { Directory } from './directory/directory';
import type { SellerClient } from './seller-client/seller-client.types';
import type { Store } from './store/store';
import { systemClock, type Clock } from './clock';
import { gatewayConfig, type GatewayConfig } from './gateway-config';
import { createTokenVerifier } from './auth/token-verifier';
import { authenticate } from './auth/authenticate';
import { createOperations } from './operations/index';
import { operationRoute } from './http/operation-route';
import { errorResponse } from './http/error-response';
import { healthRoute } from './http/health-route';
import { createRequestLog, jsonLineLogger, requestLog, type Logger } from './http/request-log';
import { checkMiddleware, inTurn } from './http/request-check';
import { requireJsonContentType } from './http/json-content-type';
import { OverallStatus, type SellerReplyCheck } from '../contracts/index';
import type { GatewayEnv } from './http/gateway-env';
import { createCatalog } from './catalog/catalog-queries';
import { createCatalogSearch } from './catalog/catalog-search';
import { catalogRoutes } from './catalog/catalog-routes';
import { catalogSessionRoutes } from './catalog-session/catalog-session-routes';
import { buyerOrCatalogSession } from './catalog-session/catalog-session-auth';
import { apiReferenceRoutes } from './api-reference/api-reference-routes';
import { requestBodyLimit } from './protection/request-body-limit';
import { rateLimitedAuth } from './protection/rate-limit';
import { failedAuthLimit } from './protection/failed-auth-limit';
import { failedAttempts } from '../shared/failed-attempts';
import { createRateLimiter } from './protection/rate-limiter';
import { clientRateLimits } from './protection/client-rate-limits';
import type { GatewayMetrics } from './metrics/gateway-metrics';
import { requestMetrics } from './metrics/request-metrics';
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
  /** True once the instance is shutting down: /health answers 503 (reason `draining`). */
  draining?: () => boolean;
  /** The seller reply check: the fused one pass by default; the reference path (checkSellerReply) for oracle tests. */
  replyCheck?: SellerReplyCheck;
}

export const V3_2 = '/json/federated/v3_2';
export const V3_1 = '/json/federated/v3_1';

export function createGateway(deps: GatewayDeps) {
  const clock = deps.clock ?? systemClock;
  const config = deps.config ?? gatewayConfig();
  // Seller protection per member (circuit breaker, cap on calls in flight) around the real client.
  const metrics = deps.metrics;
  const sellerClient = protectSellerClient(deps.sellerClient, {
    ...sellerProtectionOptions(config.protection),
    clock,
    onOutcome: metrics && ((member, outcome) => metrics.sellerCall(member, outcome)),
    onRefused: metrics && ((member, reason) => metrics.sellerRefused(member, reason)),
  });
  metrics?.watchBreakers(sellerClient.breakers);
  const operations = createOperations({
    store: deps.store,
    directory: deps.directory,
    sellerClient,
    clock,
    config,
    onViolations: metrics && ((member, list) => metrics.violations(member, list)),
    replyCheck: deps.replyCheck,
  });
  // Every buyer endpoint authenticates through this: the API client's rate limit comes with it.
  // Requests failing authentication are limited per client address first, before any token is checked.
  const verified = authenticate(createTokenVerifier({ directory: deps.directory, clock, config: config.auth }));
  const authFailures = failedAttempts({ limit: config.protection.authFailureLimit, windowMs: 60_000, clock });
  const auth = rateLimitedAuth(failedAuthLimit(verified, authFailures), {
    limiter: createRateLimiter({ windowMs: config.protection.rateLimitWindowMs, clock }),
    limits: clientRateLimits(deps.store, { defaultLimit: config.protection.rateLimit, ttlMs: 30_000, clock }),
    instances: config.protection.rateLimitInstances,
  });
  const log = createRequestLog(deps.logger === false ? undefined : (deps.logger ?? jsonLineLogger));
  const bodyLimit = requestBodyLimit(config.protection.maxBodyBytes);
  const authMiddleware = checkMiddleware(auth);

  // The buyer operations come first: each is one handler that runs the request log and the
  // checks itself (http/operation-route.ts) and always answers, so the app-wide middleware
  // registered after them (Hono runs matched handlers in registration order) is never reached
  // on their paths. Every other route gets the same steps as middleware. A step meant for the
  // buyer operations too belongs in their edge (operation-route.ts) as well.
  const app = new Hono<GatewayEnv>();
  app.onError(errorResponse);

  // The content type is judged before authentication: a form post is refused without verifying a token.
  const edge = { log, checks: inTurn(bodyLimit, requireJsonContentType, auth), metrics, forwardHeaders: config.forwardHeaders };
  const routes = {
    item_inquiry: operationRoute(
      'item-inquiry',
      itemCountLimit(operations.itemInquiry, { limit: config.protection.maxInquiryItems, rule: INQUIRY_ITEMS_RULE, noun: 'items per item inquiry' }),
      edge,
    ),
    place_order: operationRoute(
      'place-order',
      itemCountLimit(operations.placeOrder, { limit: config.protection.maxOrderLines, rule: ORDER_LINES_RULE, noun: 'lines per order' }),
      edge,
    ),
    invoice: operationRoute('invoice', operations.invoice, edge, 'invoices'),
    statement: operationRoute('statement', operations.statement, edge, 'statements'),
  };
  // The buyer operations under a version's base path.
  const mount = (base: string, names: (keyof typeof routes)[]) => {
    for (const name of names) app.post(`${base}/${name}`, routes[name]);
  };
  mount(V3_2, ['item_inquiry', 'place_order', 'invoice', 'statement']);
  // v3.1 lists item inquiry and place order with the same bodies: the very same handlers.
  mount(V3_1, ['item_inquiry', 'place_order']);

  app.use('*', requestLog(log));
  if (metrics !== undefined) app.use('*', requestMetrics(metrics));
  app.use('*', checkMiddleware(bodyLimit));
  // Every other JSON endpoint (catalog, catalog session, catalog token) takes the same content type.
  app.use('*', checkMiddleware(requireJsonContentType));
  app.notFound((c) => c.json({ status_code: OverallStatus.GeneralError, message: `no such endpoint: ${c.req.method} ${c.req.path}` }, 404));

  app.get('/health', healthRoute(deps.store, deps.draining));

  // v3.1 catalog launch and cart, the catalog page and its session API.
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
  // Catalog and search answer the buyer system (JWT) and the catalog page (session token) alike.
  app.route('/', catalogRoutes({ catalog, search: createCatalogSearch(deps.store), auth: buyerOrCatalogSession(authMiddleware, session.sessionAuth) }));
  app.route('/', apiReferenceRoutes());

  return app;
}

export type Gateway = ReturnType<typeof createGateway>;
