import { Hono } from 'hono';
import { OverallStatus, type GatewayErrorReply } from '../../contracts/index';
import type { Store } from '../store/store';
import type { Directory } from '../directory/directory';
import type { AddressValidator } from '../address/address-validator';
import type { OutboxDispatcher } from '../mail/outbox-dispatcher';
import { systemClock, type Clock } from '../clock';
import type { InternalApiConfig } from './internal-api-config';
import { requireInternalToken } from './internal-auth';
import { CreateUserRejected, internalErrorResponse } from './internal-api-errors';
import { readJsonBody } from '../../shared/http/json-body';
import { bodyLimitCheck } from '../../shared/http/body-limit';
import { guardedBy } from '../../shared/http/request-guard';
import { jsonContentType } from '../../shared/http/json-content-type';
import { sameOriginOnly } from '../../shared/http/cross-site';
import { refusalError } from '../errors';
import { PayloadTooLargeError } from '../protection/protection-errors';
import { createUser } from './create-user';
import { outboxRoutes } from './outbox-routes';
import type { ExchangeFeed } from '../../inspector/exchange';
import { createInspector } from '../../inspector/inspector-app';
import { keyRoutes } from './key-routes';
import { memberRoutes } from './member-routes';
import { certificationRoutes } from './certification-routes';
import { conformanceRoutes } from './conformance-routes';
import type { GatewayMetrics } from '../metrics/gateway-metrics';
import { metricsRoute } from '../metrics/metrics-route';
import { internalApiReferenceRoutes } from '../api-reference/api-reference-routes';

// The internal API: a Hono app of its own (own port, own credential), separate from the
// buyer gateway. Serves POST /internal/users/create and the outbox's operator view.

export interface InternalApiDeps {
  store: Store;
  addressValidator: AddressValidator;
  config: InternalApiConfig;
  /** The gateway's directory in this process, invalidated when a user is created. */
  directory?: Pick<Directory, 'invalidate'>;
  /** The gateway's metrics in this process, served at GET /metrics (internal credential). */
  metrics?: GatewayMetrics;
  /** Why a seller URL may not be written to a member (production's address policy); undefined when it may. */
  sellerUrlRefusal?: (sellerUrl: string) => Promise<string | undefined>;
  /** Woken after each creation so the welcome mail leaves at once; runs `retry` passes. */
  dispatcher?: OutboxDispatcher;
  clock?: Clock;
  log?: (line: string) => void;
  /** The gateway's forwarded exchanges: served by the inspector at /inspector, behind the same credential. */
  inspector?: { feed: ExchangeFeed; signal?: AbortSignal };
  /** A certification worker in this process, woken when a certification is asked for. */
  certificationWorker?: { wake(): void };
}

const MAX_BODY_BYTES = 64 * 1024;

export function createInternalApi(deps: InternalApiDeps): Hono {
  const clock = deps.clock ?? systemClock;
  const log = deps.log ?? ((line: string) => console.error(line));
  const app = new Hono();

  // No browser has business here: a request one sends from another site is refused before
  // the credential is looked at; then the credential, the body's size and its content type.
  app.use('/internal/*', guardedBy([sameOriginOnly({ methods: 'all' })], refusalError));
  app.use('/internal/*', requireInternalToken(deps.config.token));
  if (deps.metrics !== undefined)
    app.get('/metrics', requireInternalToken(deps.config.token), metricsRoute(deps.metrics.registry));
  const bodyLimit = bodyLimitCheck(
    MAX_BODY_BYTES,
    () =>
      new PayloadTooLargeError(`request body larger than ${MAX_BODY_BYTES} bytes`, [
        { path: '', message: `body larger than ${MAX_BODY_BYTES} bytes` },
      ]),
  );
  app.use('/internal/*', async (c, next) => {
    await bodyLimit(c);
    await next();
  });
  app.use('/internal/*', guardedBy([jsonContentType], refusalError));

  app.post('/internal/users/create', async (c) => {
    // The specification's create-user errors are 400 with its own message shape.
    const body = await readJsonBody(
      c,
      (reason) => new CreateUserRejected([{ path: '', detail: `is not valid JSON (${reason})` }]),
    );
    const reply = await createUser(body, {
      store: deps.store,
      addressValidator: deps.addressValidator,
      clock,
      directory: deps.directory,
      onCreated: () => deps.dispatcher?.wake(),
    });
    return c.json(reply, 200);
  });

  const conformance = conformanceRoutes({ store: deps.store, clock, credential: deps.config.token });
  app.route('/inspector/conformance', conformance.page);
  if (deps.inspector !== undefined) {
    // Outside /internal/*: a browser cannot send the bearer header, so the inspector takes the
    // credential once and keeps a session cookie (inspector/inspector-access.ts).
    app.route(
      '/inspector',
      createInspector({ ...deps.inspector, credential: deps.config.token, title: 'Gateway — forwarded exchanges' }).app,
    );
  }
  app.route('/internal/outbox', outboxRoutes({ store: deps.store, clock, dispatcher: deps.dispatcher }));
  app.route('/internal/keys', keyRoutes({ store: deps.store, directory: deps.directory }));
  app.route(
    '/internal/members',
    memberRoutes({ store: deps.store, directory: deps.directory, clock, sellerUrlRefusal: deps.sellerUrlRefusal }),
  );
  app.route(
    '/internal',
    certificationRoutes({ store: deps.store, clock, onRequested: () => deps.certificationWorker?.wake() }),
  );
  app.route('/internal/conformance', conformance.api);
  app.route('/', internalApiReferenceRoutes({ serverUrl: deps.config.publicUrl }));

  app.notFound((c) =>
    c.json(
      {
        status_code: OverallStatus.GeneralError,
        message: `no route ${c.req.method} ${c.req.path}`,
      } satisfies GatewayErrorReply,
      404,
    ),
  );
  app.onError((error, c) => internalErrorResponse(error, c, log));
  return app;
}
