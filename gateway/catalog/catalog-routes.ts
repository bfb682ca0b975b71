import { Hono, type MiddlewareHandler } from 'hono';
import {
  CatalogApplicationAssetsRequest,
  CatalogCategoriesRequest,
  CatalogProductAssetsRequest,
  CatalogProductInfoRequest,
  CatalogProductsRequest,
  CatalogVehiclesRequest,
  SearchQuery,
} from '../../contracts/schemas/catalog';
import type { GatewayEnv } from '../http/gateway-env';
import type { Catalog } from './catalog-queries';
import type { CatalogSearch } from './catalog-search';
import { readBody, readQuery } from './read-request';

export interface CatalogRoutesDeps {
  catalog: Catalog;
  search: CatalogSearch;
  /** Who may query: the buyer JWT middleware, or catalogAuth (buyer JWT or catalog session token). */
  auth: MiddlewareHandler<GatewayEnv>;
}

/** The catalog and search endpoints; mount at the root: app.route('/', catalogRoutes(deps)). */
export function catalogRoutes({ catalog, search, auth }: CatalogRoutesDeps): Hono<GatewayEnv> {
  const app = new Hono<GatewayEnv>();
  app.use('/catalog/*', auth);
  app.use('/search/*', auth);

  app.post('/catalog/vehicles', async (c) => c.json(await catalog.vehicles(await readBody(c, CatalogVehiclesRequest))));
  app.post('/catalog/categories', async (c) =>
    c.json(await catalog.categories(await readBody(c, CatalogCategoriesRequest))),
  );
  app.post('/catalog/products', async (c) => c.json(await catalog.products(await readBody(c, CatalogProductsRequest))));
  app.post('/catalog/products/assets', async (c) =>
    c.json(await catalog.productAssets(await readBody(c, CatalogProductAssetsRequest))),
  );
  app.post('/catalog/product/info', async (c) =>
    c.json(await catalog.productInfo((await readBody(c, CatalogProductInfoRequest)).sku)),
  );
  app.post('/catalog/applications/assets', async (c) =>
    c.json(await catalog.applicationAssets(await readBody(c, CatalogApplicationAssetsRequest))),
  );

  app.get('/search/products', async (c) =>
    c.json(await search.products(readQuery(c, SearchQuery, ['limit', 'offset']))),
  );
  app.get('/search/vehicles', async (c) =>
    c.json(await search.vehicles(readQuery(c, SearchQuery, ['limit', 'offset']))),
  );
  return app;
}
