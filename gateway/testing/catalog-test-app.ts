// For tests: the catalog routes on the real pieces they run with in the gateway — a store
// seeded with the directory and the catalog, the buyer token verifier, the error mapping —
// plus dev tokens for the seeded buyer systems.
import { Hono } from 'hono';
import { createTestStore } from './test-store';
import type { Store } from '../store/store';
import { createDirectory } from '../directory/create-directory';
import { createTokenVerifier } from '../auth/token-verifier';
import { authenticate } from '../auth/authenticate';
import { errorResponse } from '../http/error-response';
import { requestLog } from '../http/request-log';
import { checkMiddleware } from '../http/request-check';
import type { GatewayEnv } from '../http/gateway-env';
import { DEV_KEYS, mintDevToken } from '../auth/dev-keys';
import { seedCatalog } from '../catalog/catalog-seed';
import { createCatalog } from '../catalog/catalog-queries';
import { createCatalogSearch } from '../catalog/catalog-search';
import { catalogRoutes } from '../catalog/catalog-routes';

export interface CatalogTestApp {
  app: Hono<GatewayEnv>;
  store: Store;
  /** A fresh token of the seeded buyer system acting for `demo` (dev-key-1) or `other` (dev-key-2). */
  token(kid?: keyof typeof DEV_KEYS): Promise<string>;
  close(): Promise<void>;
}

/** A bare app with the gateway's request log and error mapping, for mounting route groups on. */
export function testShell(): Hono<GatewayEnv> {
  const app = new Hono<GatewayEnv>();
  app.use(
    '*',
    requestLog(() => {}),
  );
  app.onError((error, c) => errorResponse(error, c));
  return app;
}

export async function catalogTestApp(): Promise<CatalogTestApp> {
  const store = await createTestStore();
  await seedCatalog(store);
  const verifier = createTokenVerifier({ directory: createDirectory(store), clock: Date.now });
  const app = testShell();
  app.route(
    '/',
    catalogRoutes({
      catalog: createCatalog(store),
      search: createCatalogSearch(store),
      auth: checkMiddleware(authenticate(verifier)),
    }),
  );
  return { app, store, token: mintDevToken, close: () => store.close() };
}
