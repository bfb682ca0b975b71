import { describe, expect, it } from 'vitest';
import { compileValidator } from '../../contracts/index';
import { catalogRoutes } from '../catalog/catalog-routes';
import type { Catalog } from '../catalog/catalog-queries';
import type { CatalogSearch } from '../catalog/catalog-search';
import { apiReferenceRoutes } from './api-reference-routes';

type Doc = {
  openapi: string;
  paths: Record<
    string,
    Record<
      string,
      {
        requestBody?: { content: Record<string, { schema: { $ref: string } }> };
        responses: Record<string, { content: Record<string, { schema: { $ref: string } }> }>;
      }
    >
  >;
  components: { schemas: Record<string, object> };
};

async function documentServed(): Promise<Doc> {
  const response = await apiReferenceRoutes().request('/openapi.json');
  expect(response.status).toBe(200);
  return (await response.json()) as Doc;
}

describe('GET /openapi.json', () => {
  it('is an OpenAPI 3.1 document whose every $ref resolves to a compilable JSON Schema', async () => {
    const doc = await documentServed();
    expect(doc.openapi).toBe('3.1.0');
    const refs = JSON.stringify(doc.paths).match(/#\/components\/schemas\/[A-Za-z0-9]+/g) ?? [];
    expect(refs.length).toBeGreaterThan(20);
    for (const ref of refs) {
      const schema = doc.components.schemas[ref.split('/').pop()!];
      expect(schema, ref).toBeDefined();
      expect(() => compileValidator(schema as never)).not.toThrow();
    }
  });

  it('covers every endpoint the gateway serves', async () => {
    const doc = await documentServed();
    const operations = Object.entries(doc.paths).flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`));
    expect(operations.sort()).toEqual(
      [
        'POST /json/federated/v3_2/item_inquiry',
        'POST /json/federated/v3_2/place_order',
        'POST /json/federated/v3_2/invoice',
        'POST /json/federated/v3_2/statement',
        'POST /json/federated/v3_1/item_inquiry',
        'POST /json/federated/v3_1/place_order',
        'POST /catalog/vehicles',
        'POST /catalog/categories',
        'POST /catalog/products',
        'POST /catalog/products/assets',
        'POST /catalog/product/info',
        'POST /catalog/applications/assets',
        'GET /search/products',
        'GET /search/vehicles',
        'POST /internal/users/create',
        'POST /auth/get_catalog_token',
        'GET /v2_1/catalog/cart/{cart_id}',
        'GET /catalog-session/api/session',
        'POST /catalog-session/api/availability',
        'GET /catalog-session/api/cart',
        'POST /catalog-session/api/cart/items',
        'PATCH /catalog-session/api/cart/items/{item_id}',
        'DELETE /catalog-session/api/cart/items/{item_id}',
      ].sort(),
    );
  });

  it('documents every route the catalog routes register', async () => {
    const doc = await documentServed();
    const unused = {} as Catalog & CatalogSearch;
    const routes = catalogRoutes({ catalog: unused, search: unused, auth: async (_c, next) => next() }).routes.filter((r) => r.method !== 'ALL');
    expect(routes.length).toBe(8);
    for (const route of routes) expect(doc.paths[route.path]?.[route.method.toLowerCase()], `${route.method} ${route.path}`).toBeDefined();
  });

  it('serves an interactive reference page that embeds the document and loads nothing from elsewhere', async () => {
    const response = await apiReferenceRoutes().request('/reference');
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('"/v2_1/catalog/cart/{cart_id}"');
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=|https?:\/\/(?!localhost)[a-z]/i);
    expect(response.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
  });

  it('gives the error reply schema for refusals', async () => {
    const doc = await documentServed();
    const refusal = doc.paths['/catalog/products'].post.responses['422'];
    expect(refusal.content['application/json'].schema.$ref).toBe('#/components/schemas/GatewayErrorReply');
  });

  it('documents the 409 of place order (in flight, or the number reused for another order) on both versions only', async () => {
    const doc = await documentServed();
    for (const version of ['v3_2', 'v3_1']) expect(doc.paths[`/json/federated/${version}/place_order`].post.responses['409']).toBeDefined();
    expect(doc.paths['/json/federated/v3_2/item_inquiry'].post.responses['409']).toBeUndefined();
  });
});
