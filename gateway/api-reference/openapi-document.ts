// The OpenAPI 3.1 document of every gateway endpoint, generated from the contract schemas
// (never hand-written shapes). OpenAPI 3.1 uses JSON Schema 2020-12, which the TypeBox
// schemas are compatible with; each payload becomes a named component.
import type { TSchema } from '@sinclair/typebox';
import { GatewayErrorReply, PAYLOADS } from '../../contracts/index';
import { CATALOG_PAYLOADS, CartItemPath, CartPath } from '../../contracts/schemas/catalog';

type Json = Record<string, unknown>;

interface Endpoint {
  method: 'get' | 'post' | 'patch' | 'delete';
  path: string;
  summary: string;
  tag: string;
  request?: TSchema;
  reply: TSchema;
  /** Query or path parameters, as OpenAPI parameter objects. */
  parameters?: Json[];
  /** Authentication scheme name; undefined for none. */
  security?: 'buyerJwt' | 'catalogSession' | 'internalApi' | 'buyerOrCatalogSession';
  errors: number[];
  description?: string;
}

const OPERATION_ERRORS = [401, 403, 422, 502, 503, 504];
const CATALOG_ERRORS = [401, 422];

const transactional = (version: 'v3_2' | 'v3_1', operation: 'item-inquiry' | 'place-order' | 'invoice' | 'statement', summary: string): Endpoint => ({
  method: 'post',
  path: `/json/federated/${version}/${operation.replace('-', '_')}`,
  summary,
  tag: version === 'v3_2' ? 'v3.2 operations' : 'v3.1 operations',
  request: PAYLOADS[operation]['buyer-request'],
  reply: PAYLOADS[operation]['buyer-reply'],
  security: 'buyerJwt',
  // Place order also answers 409: the same purchase order number still in flight, or reused for a different order.
  errors: operation === 'place-order' ? [...OPERATION_ERRORS, 409].sort((x, y) => x - y) : OPERATION_ERRORS,
  description: version === 'v3_1' ? 'Same bodies and behaviour as v3.2, served by the same handler.' : undefined,
});

const catalog = (path: string, operation: keyof typeof CATALOG_PAYLOADS & `catalog-${string}`, summary: string): Endpoint => ({
  method: 'post',
  path,
  summary,
  tag: 'Catalog',
  request: (CATALOG_PAYLOADS[operation] as { request: TSchema }).request,
  reply: CATALOG_PAYLOADS[operation].reply,
  security: 'buyerOrCatalogSession',
  errors: path === '/catalog/product/info' || path === '/catalog/vehicles' ? [...CATALOG_ERRORS, 404] : CATALOG_ERRORS,
});

/** TypeBox schemas carry symbols JSON drops; a JSON round trip leaves plain JSON Schema. */
function plain(schema: TSchema): Json {
  return JSON.parse(JSON.stringify(schema)) as Json;
}

/** The catalog page's API, authorised by the catalog session token. */
function catalogSession(): Endpoint[] {
  const base = '/catalog-session/api';
  const tag = 'Catalog session';
  const itemId = [{ name: 'item_id', in: 'path', required: true, schema: plain(CartItemPath.properties.item_id), description: 'Cart line id (items[].id)' }];
  const cart = CATALOG_PAYLOADS.cart.reply;
  const common = { tag, security: 'catalogSession' as const };
  return [
    {
      ...common,
      method: 'get',
      path: `${base}/session`,
      summary: 'The session: cart id, buyer, expiry, locations',
      reply: CATALOG_PAYLOADS['catalog-session'].reply,
      errors: [401],
    },
    {
      ...common,
      method: 'post',
      path: `${base}/availability`,
      summary: "A product's price and stock at the buyer's locations (an item inquiry)",
      request: CATALOG_PAYLOADS['product-availability'].request,
      reply: CATALOG_PAYLOADS['product-availability'].reply,
      errors: [401, 422, 502, 503, 504],
    },
    { ...common, method: 'get', path: `${base}/cart`, summary: "The session's cart", reply: cart, errors: [401] },
    {
      ...common,
      method: 'post',
      path: `${base}/cart/items`,
      summary: 'Add an item (priced by the seller at that location)',
      request: CATALOG_PAYLOADS['cart-add-item'].request,
      reply: cart,
      errors: [401, 403, 422, 502, 503, 504],
      description: "The same SKU at the same location adds to that line. The location must be one of the buyer's where they may order (else 3110).",
    },
    {
      ...common,
      method: 'patch',
      path: `${base}/cart/items/{item_id}`,
      summary: 'Change the quantity or location of an item',
      parameters: itemId,
      request: CATALOG_PAYLOADS['cart-change-item'].request,
      reply: cart,
      errors: [401, 403, 404, 422, 502, 503, 504],
    },
    { ...common, method: 'delete', path: `${base}/cart/items/{item_id}`, summary: 'Remove an item', parameters: itemId, reply: cart, errors: [401, 404, 422] },
  ];
}

const searchParameters: Json[] = [
  {
    name: 'query',
    in: 'query',
    required: true,
    schema: { type: 'string', minLength: 1, maxLength: 200 },
    description: 'Words to look for; prefixes and typos are tolerated',
  },
  { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 50, default: 10 } },
  { name: 'offset', in: 'query', schema: { type: 'integer', minimum: 0, default: 0 } },
];

/** Every endpoint the gateway serves (the internal API is documented on its own server). */
export const ENDPOINTS: Endpoint[] = [
  transactional('v3_2', 'item-inquiry', 'Check pricing and availability'),
  transactional('v3_2', 'place-order', 'Submit a purchase order'),
  transactional('v3_2', 'invoice', 'Retrieve invoices'),
  transactional('v3_2', 'statement', 'Retrieve statements'),
  transactional('v3_1', 'item-inquiry', 'Check pricing and availability (v3.1)'),
  transactional('v3_1', 'place-order', 'Submit purchase orders (v3.1)'),
  {
    method: 'post',
    path: '/auth/get_catalog_token',
    summary: 'Generate a catalog session token',
    tag: 'Catalog launch and cart',
    request: CATALOG_PAYLOADS['catalog-token'].request,
    reply: CATALOG_PAYLOADS['catalog-token'].reply,
    security: 'buyerJwt',
    errors: [401, 403, 404, 422],
    description:
      "A short-lived catalog session bound to a cart: a fresh cart, or the buyer's own cart_id to resume " +
      "it (404 unknown, 403/4403 another buyer's). The body may be empty. Open launch_url in a browser.",
  },
  {
    method: 'get',
    path: '/v2_1/catalog/cart/{cart_id}',
    summary: 'Retrieve a cart from a catalog session',
    tag: 'Catalog launch and cart',
    parameters: [{ name: 'cart_id', in: 'path', required: true, schema: plain(CartPath.properties.cart_id) }],
    reply: CATALOG_PAYLOADS.cart.reply,
    security: 'buyerJwt',
    errors: [401, 403, 404, 422],
  },
  ...catalogSession(),
  catalog('/catalog/vehicles', 'catalog-vehicles', 'Query vehicles, one level at a time'),
  catalog('/catalog/categories', 'catalog-categories', 'Query categories and part types'),
  catalog('/catalog/products', 'catalog-products', 'Query products and fitment'),
  catalog('/catalog/products/assets', 'catalog-product-assets', 'Fetch product assets'),
  catalog('/catalog/product/info', 'catalog-product-info', 'Fetch product info'),
  catalog('/catalog/applications/assets', 'catalog-application-assets', 'Fetch application assets'),
  {
    method: 'get',
    path: '/search/products',
    summary: 'Product search',
    tag: 'Search',
    parameters: searchParameters,
    reply: CATALOG_PAYLOADS['search-products'].reply,
    security: 'buyerOrCatalogSession',
    errors: CATALOG_ERRORS,
  },
  {
    method: 'get',
    path: '/search/vehicles',
    summary: 'Vehicle search',
    tag: 'Search',
    parameters: searchParameters,
    reply: CATALOG_PAYLOADS['search-vehicles'].reply,
    security: 'buyerOrCatalogSession',
    errors: CATALOG_ERRORS,
  },
  {
    method: 'post',
    path: '/internal/users/create',
    summary: 'Create a user with assigned locations',
    tag: 'Internal API',
    request: PAYLOADS['users-create'].request,
    reply: PAYLOADS['users-create'].reply,
    security: 'internalApi',
    errors: [400, 401],
    description: 'Served by the internal API at {api_url}, not by the gateway base address.',
  },
];

const componentName = (schema: TSchema, fallback: string) =>
  (typeof schema.title === 'string' ? schema.title : fallback)
    .replace(/[^A-Za-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join('');

export function openApiDocument(options: { serverUrl?: string; version?: string } = {}): Json {
  const schemas: Json = { GatewayErrorReply: plain(GatewayErrorReply) };
  const ref = (schema: TSchema, fallback: string) => {
    const name = componentName(schema, fallback);
    schemas[name] ??= plain(schema);
    return { $ref: `#/components/schemas/${name}` };
  };
  const paths: Record<string, Json> = {};
  for (const e of ENDPOINTS) {
    const id = `${e.method} ${e.path}`;
    const responses: Json = {
      200: { description: 'Success', content: { 'application/json': { schema: ref(e.reply, `${id} reply`) } } },
    };
    for (const status of e.errors) {
      responses[status] = {
        description: ERROR_MEANING[status] ?? 'Error',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/GatewayErrorReply' } } },
      };
    }
    const operation: Json = {
      operationId: `${e.method}${e.path.replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
      summary: e.summary,
      tags: [e.tag],
      responses,
    };
    if (e.description) operation.description = e.description;
    if (e.parameters) operation.parameters = e.parameters;
    if (e.request) operation.requestBody = { required: true, content: { 'application/json': { schema: ref(e.request, `${id} request`) } } };
    if (e.security === 'buyerOrCatalogSession') operation.security = [{ buyerJwt: [] }, { catalogSession: [] }];
    else if (e.security) operation.security = [{ [e.security]: [] }];
    (paths[e.path] ??= {})[e.method] = operation;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Federated Gateway',
      version: options.version ?? '3.2',
      description:
        'Buyer-to-seller gateway of the member network: v3.2 and v3.1 operations, catalog launch and cart, catalog and search. Generated from the contract schemas in contracts/.',
    },
    servers: [{ url: options.serverUrl ?? '/' }],
    tags: ['v3.2 operations', 'v3.1 operations', 'Catalog launch and cart', 'Catalog session', 'Catalog', 'Search', 'Internal API'].map((name) => ({ name })),
    paths,
    components: {
      schemas,
      securitySchemes: {
        buyerJwt: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'Self-signed RS256/ES256 JWT of a registered buyer system (kid, iss, aud, iat, exp; sub names the buyer user)',
        },
        catalogSession: { type: 'http', scheme: 'bearer', description: 'Catalog session token from POST /auth/get_catalog_token' },
        internalApi: { type: 'http', scheme: 'bearer', description: 'The internal API credential' },
      },
    },
  };
}

const ERROR_MEANING: Record<number, string> = {
  400: 'Refused (create user rules)',
  401: 'Not authenticated (status_code 4403)',
  403: 'Not allowed for this buyer (status_code 4403 or 3110)',
  404: 'Not found',
  409: 'The purchase order is still being placed (status_code 3000), or its number was already used for a different order (status_code 4422, naming the first differing field)',
  422: 'Validation error naming every field (status_code 4422, or 3100/3200)',
  502: 'The seller broke the contract (status_code 5500)',
  503: 'The seller is offline (status_code 5503)',
  504: 'The seller timed out (status_code 4408)',
};
