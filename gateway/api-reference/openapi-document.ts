// The OpenAPI 3.1 document of every gateway endpoint, generated from the contract schemas
// (never hand-written shapes), with every status each operation answers and an example of
// every request and reply. The internal API has its own (internal-api-document.ts).
import type { TSchema } from '@sinclair/typebox';
import { GatewayErrorReply, PAYLOADS } from '../../contracts/index';
import { CATALOG_PAYLOADS, CartItemPath, CartPath } from '../../contracts/schemas/catalog';
import { HealthReply } from '../../shared/http/health-reply';
import { loadFixture } from '../../contracts/payload-examples';
import { SERVER_ANSWER_RESPONSES } from './server-answer-responses';
import { CONTRACT_VERSION } from '../../contracts/contract-version';
import {
  buildOpenApiDocument,
  plain,
  type Endpoint,
  type ErrorAnswer,
  type Json,
} from '../../contracts/openapi-builder';
import { envelopeExample, GATEWAY_ERRORS as E } from './error-answers';
import SEEDED from './examples/seeded-catalog-replies.json' with { type: 'json' };

type Errors = Record<number, ErrorAnswer>;
const seeded = SEEDED as Record<string, unknown>;

/** Every status a buyer operation answers besides 200; place order adds 409. */
const operationErrors = (): Errors => ({
  401: E[401](),
  403: E[403](),
  413: E[413](),
  415: E[415](),
  422: E[422](),
  429: E[429](),
  502: E[502](),
  503: E[503](),
  504: E[504](),
});

/** Invoices and statements answer failures in their own envelope (http/error-response.ts). */
function inEnvelope(errors: Errors, envelope: 'invoices' | 'statements'): Errors {
  const schema = envelope === 'invoices' ? 'InvoiceErrorReply' : 'StatementErrorReply';
  return Object.fromEntries(
    Object.entries(errors).map(([status, a]) => [
      status,
      { ...a, schema, example: envelopeExample(envelope, a.example as { status_code: number; message: string }) },
    ]),
  );
}

const BUYER_JWT = ['buyerJwt'];
const CATALOG_AUTH = ['buyerJwt', 'catalogSession'];
const SESSION = ['catalogSession'];
const RATE_HEADERS: Record<string, Json> = Object.fromEntries(
  ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'].map((name) => [
    name,
    { schema: { type: 'integer' }, description: `${name.slice(12)} of the API client's rate limit (reset in seconds)` },
  ]),
);

function transactional(
  version: 'v3_2' | 'v3_1',
  operation: 'item-inquiry' | 'place-order' | 'invoice' | 'statement',
  summary: string,
): Endpoint {
  let errors = operationErrors();
  if (operation === 'place-order') errors[409] = E[409]();
  if (operation === 'invoice') errors = inEnvelope(errors, 'invoices');
  if (operation === 'statement') errors = inEnvelope(errors, 'statements');
  return {
    method: 'post',
    path: `/json/federated/${version}/${operation.replace('-', '_')}`,
    summary,
    tag: version === 'v3_2' ? 'v3.2 operations' : 'v3.1 operations',
    request: { schema: PAYLOADS[operation]['buyer-request'], example: loadFixture(operation, 'buyer-request') },
    reply: {
      status: 200,
      schema: PAYLOADS[operation]['buyer-reply'],
      example: loadFixture(operation, 'buyer-reply'),
      headers: RATE_HEADERS,
    },
    security: BUYER_JWT,
    errors,
    description: version === 'v3_1' ? 'Same bodies and behaviour as v3.2, served by the same handler.' : undefined,
  };
}

/** Catalog queries: what the seeded catalog answers to the example request. */
function catalog(
  path: string,
  operation: keyof typeof CATALOG_PAYLOADS & `catalog-${string}`,
  summary: string,
  example: unknown,
  notFound?: string,
): Endpoint {
  const errors: Errors = {
    401: E[401](),
    413: E[413](),
    415: E[415](),
    422: E[422](),
    429: E[429](),
    503: E.storeDown(),
  };
  if (notFound !== undefined) errors[404] = E[404](notFound);
  return {
    method: 'post',
    path,
    summary,
    tag: 'Catalog',
    request: { schema: (CATALOG_PAYLOADS[operation] as { request: TSchema }).request, example },
    reply: { status: 200, schema: CATALOG_PAYLOADS[operation].reply, example: seeded[path] },
    security: CATALOG_AUTH,
    errors,
  };
}

/** The path parameter naming a cart line, for changing and removing it. */
const cartItemIdParameter = (): Json[] => [
  {
    name: 'item_id',
    in: 'path',
    required: true,
    schema: plain(CartItemPath.properties.item_id),
    description: 'Cart line id (items[].id)',
    example: '1',
  },
];

/** The catalog page's API, authorised by the catalog session token (no rate limit: no API client). */
function catalogSession(): Endpoint[] {
  const base = '/catalog-session/api';
  const tag = 'Catalog session';
  const itemId = cartItemIdParameter();
  const cart = { status: 200 as const, schema: CATALOG_PAYLOADS.cart.reply, example: seeded[`${base}/cart/items`] };
  const common = { tag, security: SESSION };
  const sellerErrors = { 502: E[502](), 503: E[503](), 504: E[504]() };
  const body = { 413: E[413](), 415: E[415](), 422: E[422]() };
  return [
    {
      ...common,
      method: 'get',
      path: `${base}/session`,
      summary: 'The session: cart id, buyer, expiry, locations',
      reply: { status: 200, schema: CATALOG_PAYLOADS['catalog-session'].reply, example: seeded[`${base}/session`] },
      errors: { 401: E[401](), 503: E.storeDown() },
    },
    {
      ...common,
      method: 'post',
      path: `${base}/availability`,
      summary: "A product's price and stock at the buyer's locations (an item inquiry)",
      request: { schema: CATALOG_PAYLOADS['product-availability'].request, example: { sku: 10001 } },
      reply: {
        status: 200,
        schema: CATALOG_PAYLOADS['product-availability'].reply,
        example: seeded[`${base}/availability`],
      },
      errors: { 401: E[401](), ...body, ...sellerErrors },
    },
    {
      ...common,
      method: 'get',
      path: `${base}/cart`,
      summary: "The session's cart",
      reply: cart,
      errors: { 401: E[401](), 503: E.storeDown() },
    },
    {
      ...common,
      method: 'post',
      path: `${base}/cart/items`,
      summary: 'Add an item (priced by the seller at that location)',
      request: {
        schema: CATALOG_PAYLOADS['cart-add-item'].request,
        example: { sku: 10001, location_id: 'L150', quantity: 2 },
      },
      reply: cart,
      errors: { 401: E[401](), 403: E[403](), ...body, ...sellerErrors },
      description:
        "The same SKU at the same location adds to that line. The location must be one of the buyer's where they may order (else 3110).",
    },
    {
      ...common,
      method: 'patch',
      path: `${base}/cart/items/{item_id}`,
      summary: 'Change the quantity or location of an item',
      parameters: itemId,
      request: { schema: CATALOG_PAYLOADS['cart-change-item'].request, example: { quantity: 3 } },
      reply: cart,
      errors: { 401: E[401](), 403: E[403](), 404: E[404]('the cart item'), ...body, ...sellerErrors },
    },
    {
      ...common,
      method: 'delete',
      path: `${base}/cart/items/{item_id}`,
      summary: 'Remove an item',
      parameters: itemId,
      reply: cart,
      errors: { 401: E[401](), 404: E[404]('the cart item'), 422: E[422](), 503: E.storeDown() },
    },
  ];
}

const searchParameters = (example: string): Json[] => [
  {
    name: 'query',
    in: 'query',
    required: true,
    schema: { type: 'string', minLength: 1, maxLength: 200 },
    description: 'Words to look for; prefixes and typos are tolerated',
    example,
  },
  { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 50, default: 10 }, example: 2 },
  { name: 'offset', in: 'query', schema: { type: 'integer', minimum: 0, default: 0 }, example: 0 },
];

const search = (
  path: string,
  operation: 'search-products' | 'search-vehicles',
  summary: string,
  example: string,
): Endpoint => ({
  method: 'get',
  path,
  summary,
  tag: 'Search',
  parameters: searchParameters(example),
  reply: { status: 200, schema: CATALOG_PAYLOADS[operation].reply, example: seeded[path] },
  security: CATALOG_AUTH,
  errors: { 401: E[401](), 422: E[422](), 429: E[429](), 503: E.storeDown() },
});

const CART_ID = (seeded['/auth/get_catalog_token'] as { cart_id: string }).cart_id;

const withBodyLimit = (endpoints: Endpoint[]): Endpoint[] =>
  endpoints.map((e) => ({ ...e, errors: { 413: E[413](), ...e.errors } }));

// Every route of the gateway bounds its body (the app-wide limit), so even a GET answers 413
// to a body over the limit: added to every endpoint below.

/** Every endpoint the gateway serves (the internal API is documented on its own port). */
export const ENDPOINTS: Endpoint[] = withBodyLimit([
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
    request: { schema: CATALOG_PAYLOADS['catalog-token'].request, example: {}, optional: true },
    reply: {
      status: 200,
      schema: CATALOG_PAYLOADS['catalog-token'].reply,
      example: seeded['/auth/get_catalog_token'],
      headers: RATE_HEADERS,
    },
    security: BUYER_JWT,
    errors: {
      401: E[401](),
      403: E[403](),
      404: E[404]('the cart'),
      413: E[413](),
      415: E[415](),
      422: E[422](),
      429: E[429](),
      503: E.storeDown(),
    },
    description:
      "A short-lived catalog session bound to a cart: a fresh cart, or the buyer's own cart_id to resume " +
      "it (404 unknown, 403/4403 another buyer's). The body may be empty. Open launch_url in a browser.",
  },
  {
    method: 'get',
    path: '/v2_1/catalog/cart/{cart_id}',
    summary: 'Retrieve a cart from a catalog session',
    tag: 'Catalog launch and cart',
    parameters: [
      { name: 'cart_id', in: 'path', required: true, schema: plain(CartPath.properties.cart_id), example: CART_ID },
    ],
    reply: {
      status: 200,
      schema: CATALOG_PAYLOADS.cart.reply,
      example: seeded['/catalog-session/api/cart/items'],
      headers: RATE_HEADERS,
    },
    security: BUYER_JWT,
    errors: { 401: E[401](), 403: E[403](), 404: E[404]('the cart'), 422: E[422](), 429: E[429](), 503: E.storeDown() },
  },
  ...catalogSession(),
  catalog(
    '/catalog/vehicles',
    'catalog-vehicles',
    'Query vehicles, one level at a time',
    { vehicle_group_type_id: 1, year_id: 2015 },
    'the vehicle',
  ),
  catalog('/catalog/categories', 'catalog-categories', 'Query categories and part types', {
    top_category_id: 1,
    response_items: 'categories',
  }),
  catalog('/catalog/products', 'catalog-products', 'Query products and fitment', {
    part_types: [{ id: 1684, name: 'Disc Brake Pad Set' }],
    configuration: { base_vehicle_id: 1002 },
  }),
  catalog('/catalog/products/assets', 'catalog-product-assets', 'Fetch product assets', { catalog_skus: [10001] }),
  catalog('/catalog/product/info', 'catalog-product-info', 'Fetch product info', { sku: 10001 }, 'the SKU'),
  catalog('/catalog/applications/assets', 'catalog-application-assets', 'Fetch application assets', {
    application_ids: [1],
  }),
  search('/search/products', 'search-products', 'Product search', 'brake pad'),
  search('/search/vehicles', 'search-vehicles', 'Vehicle search', 'civic'),
  {
    method: 'get',
    path: '/health',
    summary: 'Health for load balancers: 200 when the store answers',
    tag: 'Operations',
    reply: { status: 200, schema: HealthReply, example: seeded['/health'] },
    security: [],
    errors: {
      503: {
        schema: 'HealthReply',
        description:
          'The store cannot be reached, or the instance is shutting down (`reason`: `draining`; it still serves, so the balancer can take it out first) (HTTP 503)',
        example: {
          status: 'unavailable',
          down: ['store'],
          store: 'postgres',
          message: 'the store (postgres) cannot be reached: no answer within 2000 ms',
        },
        retryAfter: true,
      },
    },
  },
  {
    method: 'get',
    path: '/openapi.json',
    summary: 'This document',
    tag: 'Operations',
    reply: {
      status: 200,
      mediaType: 'application/json',
      description: 'The OpenAPI 3.1 document',
      example: { openapi: '3.1.0' },
    },
    security: [],
    errors: {},
  },
]);

export const GATEWAY_TAGS = [
  ['v3.2 operations', 'Buyer operations of specification v3.2, forwarded to the sellers'],
  ['v3.1 operations', 'The v3.1 item inquiry and place order, same bodies as v3.2'],
  ['Catalog launch and cart', 'The buyer system opens a catalog session and reads its cart back'],
  ['Catalog session', "The catalog page's API, authorised by the catalog session token"],
  ['Catalog', 'Catalog queries (vehicles, categories, products, assets)'],
  ['Search', 'Product and vehicle search'],
  ['Operations', 'Health and this document'],
].map(([name, description]) => ({ name, description }));

const invoiceOrStatementError = (reply: string): Json => ({
  title: `${reply} error`,
  description: 'The operation envelope with status "error", and the gateway error fields beside it',
  allOf: [{ $ref: `#/components/schemas/${reply}` }, { $ref: '#/components/schemas/GatewayErrorReply' }],
});

export function openApiDocument(options: { serverUrl?: string; version?: string } = {}): Json {
  return buildOpenApiDocument({
    title: 'Federated Gateway',
    // The contract's version (contracts/contract-version.ts): the document is part of the contract.
    version: options.version ?? CONTRACT_VERSION,
    description:
      'Buyer-to-seller gateway of the member network: v3.2 and v3.1 operations, catalog launch and cart, catalog and search. ' +
      'Generated from the contract schemas in contracts/. The internal API (users, keys, outbox, metrics, inspector) is ' +
      'documented by its own document, at GET /openapi.json on the internal port.',
    serverUrl: options.serverUrl ?? '/',
    serverDescription: 'The gateway (its buyer port)',
    tags: GATEWAY_TAGS,
    errorSchemas: {
      GatewayErrorReply,
      InvoiceErrorReply: invoiceOrStatementError('InvoiceBuyerReply'),
      StatementErrorReply: invoiceOrStatementError('StatementBuyerReply'),
    },
    endpoints: ENDPOINTS,
    sharedAnswers: SERVER_ANSWER_RESPONSES,
    securitySchemes: {
      buyerJwt: {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT',
        description:
          'Self-signed RS256/ES256 JWT of a registered buyer system (kid, iss, aud, iat, exp; sub names the buyer user)',
      },
      catalogSession: {
        type: 'http',
        scheme: 'bearer',
        description: 'Catalog session token from POST /auth/get_catalog_token',
      },
    },
  });
}
