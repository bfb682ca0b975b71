import { describe, expect, it } from 'vitest';
import { compileValidator } from '../../contracts/index';
import { catalogRoutes } from '../catalog/catalog-routes';
import type { Catalog } from '../catalog/catalog-queries';
import type { CatalogSearch } from '../catalog/catalog-search';
import { apiReferenceRoutes, internalApiReferenceRoutes } from './api-reference-routes';
import { documentValidators, operationsOf, resolveRefs } from './document-schemas';
import type { Json } from '../../contracts/openapi-builder';
import { createInternalApi } from '../internal-api/internal-api';
import { internalApiConfigFromEnv } from '../internal-api/internal-api-config';
import { createLocalAddressValidator } from '../address/local-address-validator';
import type { Store } from '../store/store';
import { SERVER_ANSWERS } from '../../shared/http/server-answers';
import { checkReply } from './fuzz/reply-checks';
import { CONTRACT_VERSION } from '../../contracts/contract-version';

async function documentServed(): Promise<Json> {
  const response = await apiReferenceRoutes().request('/openapi.json');
  expect(response.status).toBe(200);
  return (await response.json()) as Json;
}

async function internalDocumentServed(origin = 'http://127.0.0.1:8081'): Promise<Json> {
  const response = await internalApiReferenceRoutes().request(`${origin}/openapi.json`);
  expect(response.status).toBe(200);
  return (await response.json()) as Json;
}

const listed = (doc: Json) => operationsOf(doc).map((o) => `${o.method.toUpperCase()} ${o.path}`);

describe('GET /openapi.json', () => {
  it('is an OpenAPI 3.1 document whose every $ref resolves to a compilable JSON Schema', async () => {
    for (const doc of [await documentServed(), await internalDocumentServed()]) {
      expect(doc.openapi).toBe('3.1.0');
      const refs = JSON.stringify(doc.paths).match(/#\/components\/schemas\/[A-Za-z0-9]+/g) ?? [];
      expect(refs.length).toBeGreaterThan(10);
      const schemas = (doc.components as { schemas: Record<string, object> }).schemas;
      for (const ref of refs) {
        const schema = schemas[ref.split('/').pop()!];
        expect(schema, ref).toBeDefined();
        expect(() => compileValidator(resolveRefs(doc, schema) as never)).not.toThrow();
      }
    }
  });

  it("states the contract's version in info.version, on the buyer and the internal document alike", async () => {
    for (const doc of [await documentServed(), await internalDocumentServed()])
      expect((doc.info as Json).version).toBe(CONTRACT_VERSION);
  });

  it('covers every endpoint the gateway serves, and not the internal API', async () => {
    expect(listed(await documentServed()).sort()).toEqual(
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
        'POST /auth/get_catalog_token',
        'GET /v2_1/catalog/cart/{cart_id}',
        'GET /catalog-session/api/session',
        'POST /catalog-session/api/availability',
        'GET /catalog-session/api/cart',
        'POST /catalog-session/api/cart/items',
        'PATCH /catalog-session/api/cart/items/{item_id}',
        'DELETE /catalog-session/api/cart/items/{item_id}',
        'GET /health',
        'GET /openapi.json',
      ].sort(),
    );
  });

  it('documents every route the catalog routes register', async () => {
    const doc = await documentServed();
    const paths = doc.paths as Record<string, Record<string, unknown>>;
    const unused = {} as Catalog & CatalogSearch;
    const routes = catalogRoutes({ catalog: unused, search: unused, auth: async (_c, next) => next() }).routes.filter(
      (r) => r.method !== 'ALL',
    );
    expect(routes.length).toBe(8);
    for (const route of routes)
      expect(paths[route.path]?.[route.method.toLowerCase()], `${route.method} ${route.path}`).toBeDefined();
  });

  it('serves an interactive reference page that embeds the document and loads nothing from elsewhere', async () => {
    const response = await apiReferenceRoutes().request('/reference');
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('"/v2_1/catalog/cart/{cart_id}"');
    // The embedded document's examples may name URLs (catalog assets); the page itself names none.
    const page = html.replace(/<script type="application\/json" id="openapi">[^<]*<\/script>/, '');
    expect(page).not.toMatch(/<script[^>]+src=|<link[^>]+href=|https?:\/\/(?!localhost)[a-z]/i);
    expect(response.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
  });

  it('lists the statuses the protections answer, with Retry-After where it is sent', async () => {
    const doc = await documentServed();
    const op = (id: string) => operationsOf(doc).find((o) => o.operationId === id)!;
    const order = op('postJsonFederatedV32PlaceOrder');
    for (const status of ['200', '401', '403', '409', '413', '415', '422', '429', '502', '503', '504'])
      expect(order.responses[status], status).toBeDefined();
    expect(order.responses['429'].headers?.['Retry-After']).toBeDefined();
    expect(order.responses['503'].headers?.['Retry-After']).toBeDefined();
    expect(op('postJsonFederatedV32ItemInquiry').responses['409']).toBeUndefined();
    expect(op('postCatalogProducts').responses['422'].content!['application/json'].schema.$ref).toBe(
      '#/components/schemas/GatewayErrorReply',
    );
    expect(op('postJsonFederatedV32Invoice').responses['422'].content!['application/json'].schema.$ref).toBe(
      '#/components/schemas/InvoiceErrorReply',
    );
    expect(op('getHealth').responses['503'].headers?.['Retry-After']).toBeDefined();
  });
});

describe("Node's own answers (shared/http/server-answers.ts)", () => {
  it('are documented on every operation of both documents, as a shared response or in the operation’s own of that status', async () => {
    for (const doc of [await documentServed(), await internalDocumentServed()]) {
      const shared = (doc.components as { responses?: Record<string, { description: string }> }).responses ?? {};
      for (const op of operationsOf(doc))
        for (const answer of SERVER_ANSWERS) {
          const response = op.responses[String(answer.status)];
          expect(response, `${op.operationId} ${answer.status}`).toBeDefined();
          // Either the shared response itself, or the operation's own that also tells of Node's.
          if (response['x-answered-by'] === undefined)
            expect(response.description, `${op.operationId} ${answer.status}`).toContain(answer.description);
          else expect(response).toBe(shared[answer.name]);
        }
    }
  });

  it('say they have no JSON body, and Connection: close where the connection is closed', async () => {
    const doc = await documentServed();
    const shared = (
      doc.components as { responses: Record<string, { content?: unknown; headers?: Record<string, unknown> }> }
    ).responses;
    expect(Object.keys(shared).sort()).toEqual([
      'ServerBadRequest',
      'ServerExpectationFailed',
      'ServerHeadersTooLarge',
      'ServerRequestTimeout',
    ]);
    for (const [name, response] of Object.entries(shared)) {
      expect(response.content, name).toBeUndefined();
      expect(response.headers?.Connection !== undefined, name).toBe(
        SERVER_ANSWERS.find((a) => a.name === name)!.closes,
      );
    }
  });

  it("do not make the API's own answer of the same status documented for the fuzzer", async () => {
    const doc = await documentServed();
    const op = operationsOf(doc).find((o) => o.operationId === 'postJsonFederatedV32ItemInquiry')!;
    const validatorOf = documentValidators(doc);
    const answer = (status: number, text: string) =>
      checkReply(op, { status, headers: {}, text, ms: 1 }, { validatorOf }).map((p) => p.check);
    expect(answer(400, '')).toEqual([]);
    expect(answer(400, '{"status_code":4422}')).toEqual(['undocumented-status']);
    expect(answer(418, '')).toEqual(['undocumented-status']);
  });
});

describe('the examples', () => {
  it('give every request body and every JSON reply of both documents an example that validates against its schema', async () => {
    let checked = 0;
    for (const doc of [await documentServed(), await internalDocumentServed()]) {
      const validator = documentValidators(doc);
      for (const op of operationsOf(doc)) {
        const bodies = [
          ...Object.values(op.requestBody?.content ?? {}).map((c) => ({ where: `${op.operationId} request`, ...c })),
          ...Object.entries(op.responses).flatMap(([status, r]) =>
            Object.values(r.content ?? {}).map((c) => ({ where: `${op.operationId} ${status}`, ...c })),
          ),
        ];
        for (const body of bodies) {
          expect(body.example, body.where).toBeDefined();
          if (body.schema.type === 'string') continue; // text (Prometheus metrics)
          expect(validator(body.schema)(body.example).errors, body.where).toEqual([]);
          checked++;
        }
        for (const parameter of op.parameters)
          expect(parameter.example, `${op.operationId} ${String(parameter.name)}`).toBeDefined();
      }
    }
    expect(checked).toBeGreaterThan(150);
  });
});

describe("the internal API's document", () => {
  it('names the server the caller reached and lists the internal routes', async () => {
    const doc = await internalDocumentServed('http://10.0.0.7:9181');
    expect((doc.servers as Json[])[0].url).toBe('http://10.0.0.7:9181');
    expect(listed(doc)).toEqual(
      expect.arrayContaining([
        'POST /internal/users/create',
        'GET /internal/keys',
        'POST /internal/keys',
        'GET /internal/outbox',
        'GET /metrics',
        'POST /inspector/session',
      ]),
    );
  });

  it('is served by the internal API itself, without a credential, naming INTERNAL_PUBLIC_URL when it is set', async () => {
    const config = internalApiConfigFromEnv({ INTERNAL_PUBLIC_URL: 'https://internal.example' });
    // The document route touches no store.
    const api = createInternalApi({
      store: {} as Store,
      addressValidator: createLocalAddressValidator(),
      config,
      log: () => {},
    });
    const response = await api.request('http://127.0.0.1:8081/openapi.json');
    expect(response.status).toBe(200);
    const doc = (await response.json()) as Json;
    expect((doc.servers as Json[])[0].url).toBe('https://internal.example');
    expect(listed(doc)).toContain('POST /internal/users/create');
  });

  it('documents the 409 of place order (in flight, or the number reused for another order) on both versions only', async () => {
    const paths = (await documentServed()).paths as Record<string, { post: { responses: Json } }>;
    for (const version of ['v3_2', 'v3_1'])
      expect(paths[`/json/federated/${version}/place_order`].post.responses['409']).toBeDefined();
    expect(paths['/json/federated/v3_2/item_inquiry'].post.responses['409']).toBeUndefined();
  });
});
