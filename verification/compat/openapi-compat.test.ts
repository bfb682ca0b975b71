import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../gateway/api-reference/openapi-document';
import { internalApiDocument } from '../../gateway/api-reference/internal-api-document';
import { compareOpenApiDocuments } from './openapi-compat';
import { OPENAPI_POLICY } from './openapi-compat-policy';
import type { CompatFinding } from './compat-finding';

// The documents exactly as served (a JSON round trip drops TypeBox's symbols).
const served = (document: unknown) => JSON.parse(JSON.stringify(document)) as any;
const BUYER = served(openApiDocument());
const INTERNAL = served(internalApiDocument());

/** Every $ref replaced by a copy of its target, and components.schemas and .responses emptied. */
function inlined(document: any): any {
  const copy = structuredClone(document);
  const target = (ref: string) =>
    ref
      .slice(2)
      .split('/')
      .reduce((node: any, token) => node[token], document);
  const walk = (node: any): any => {
    if (Array.isArray(node)) return node.map(walk);
    if (node === null || typeof node !== 'object') return node;
    if (typeof node.$ref === 'string') return walk(structuredClone(target(node.$ref)));
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, walk(v)]));
  };
  copy.paths = walk(copy.paths);
  copy.components = { securitySchemes: copy.components.securitySchemes };
  return copy;
}

const S = '/components/schemas';
const II = 'POST /json/federated/v3_2/item_inquiry';
const IIP = '/paths/~1json~1federated~1v3_2~1item_inquiry/post';
const SEARCH = 'GET /search/products';
const SEARCHP = '/paths/~1search~1products/get';
const brief = (f: CompatFinding) => ({ class: f.class, policy: f.policy, pointer: f.pointer, where: f.where });

describe('compareOpenApiDocuments on the real documents', () => {
  it('finds nothing between a document and itself (buyer and internal)', () => {
    expect(compareOpenApiDocuments(BUYER, served(openApiDocument()))).toEqual([]);
    expect(compareOpenApiDocuments(INTERNAL, served(internalApiDocument()))).toEqual([]);
  });

  it('finds nothing between a document and the same with every $ref inlined, either way', () => {
    for (const document of [BUYER, INTERNAL]) {
      const flat = inlined(document);
      expect(JSON.stringify(flat)).not.toContain('$ref');
      expect(compareOpenApiDocuments(document, flat)).toEqual([]);
      expect(compareOpenApiDocuments(flat, document)).toEqual([]);
    }
  });

  it('finds nothing when a component is renamed and every reference follows it', () => {
    const head = served(
      JSON.parse(
        JSON.stringify(BUYER).replaceAll(
          '#/components/schemas/ItemInquiryBuyerReply',
          '#/components/schemas/ItemReply',
        ),
      ),
    );
    head.components.schemas.ItemReply = head.components.schemas.ItemInquiryBuyerReply;
    delete head.components.schemas.ItemInquiryBuyerReply;
    expect(compareOpenApiDocuments(BUYER, head)).toEqual([]);
  });

  it('finds nothing when the branches of a reply anyOf are reordered', () => {
    const head = structuredClone(BUYER);
    head.components.schemas.CatalogVehiclesReply.anyOf.reverse();
    head.components.schemas.HealthReply.properties.status.anyOf.reverse();
    expect(compareOpenApiDocuments(BUYER, head)).toEqual([]);
  });

  it('reports a component shared by two operations once for each, at one pointer', () => {
    const head = structuredClone(BUYER);
    delete head.components.schemas.ItemInquiryBuyerReply.properties.items.items.properties.comment;
    expect(compareOpenApiDocuments(BUYER, head).map(brief)).toEqual(
      ['POST /json/federated/v3_2/item_inquiry', 'POST /json/federated/v3_1/item_inquiry'].map((where) => ({
        class: 'breaking',
        policy: 'reply-field-removed',
        pointer: `${S}/ItemInquiryBuyerReply/properties/items/items/properties/comment`,
        where,
      })),
    );
  });
});

interface Mutation {
  name: string;
  /** Changes the head (or, with `onBase`, the base: a rule seen from the other side). */
  change: (doc: any) => void;
  onBase?: boolean;
  expected: { class: 'breaking' | 'safe'; policy: string; pointer: string; where: string }[];
}

const itemReply = (d: any) => d.components.schemas.ItemInquiryBuyerReply.properties.items.items;
const itemRequest = (d: any) => d.components.schemas.ItemInquiryBuyerRequest.properties.items.items;
const ITEM_REPLY = `${S}/ItemInquiryBuyerReply/properties/items/items`;
const ITEM_REQUEST = `${S}/ItemInquiryBuyerRequest/properties/items/items`;
const b = (policy: string, pointer: string, where = II) => ({ class: 'breaking' as const, policy, pointer, where });
const s = (policy: string, pointer: string, where = II) => ({ class: 'safe' as const, policy, pointer, where });

const MUTATIONS: Mutation[] = [
  {
    name: 'a path removed',
    change: (d) => delete d.paths['/search/vehicles'],
    expected: [b('path-removed', '/paths/~1search~1vehicles/get', 'GET /search/vehicles')],
  },
  {
    name: 'an operation removed',
    change: (d) => delete d.paths['/catalog-session/api/cart/items/{item_id}'].delete,
    expected: [
      b(
        'operation-removed',
        '/paths/~1catalog-session~1api~1cart~1items~1{item_id}/delete',
        'DELETE /catalog-session/api/cart/items/{item_id}',
      ),
    ],
  },
  {
    name: 'a path added',
    change: (d) => (d.paths['/json/federated/v3_3/item_inquiry'] = d.paths['/json/federated/v3_2/item_inquiry']),
    expected: [
      s('path-added', '/paths/~1json~1federated~1v3_3~1item_inquiry/post', 'POST /json/federated/v3_3/item_inquiry'),
    ],
  },
  {
    name: 'a response status removed',
    change: (d) => delete d.paths['/json/federated/v3_2/place_order'].post.responses['409'],
    expected: [
      b(
        'response-status-removed',
        '/paths/~1json~1federated~1v3_2~1place_order/post/responses/409',
        'POST /json/federated/v3_2/place_order',
      ),
    ],
  },
  {
    name: 'a response status added',
    change: (d) =>
      (d.paths['/json/federated/v3_2/item_inquiry'].post.responses['404'] =
        d.paths['/json/federated/v3_2/item_inquiry'].post.responses['422']),
    expected: [s('response-status-added', `${IIP}/responses/404`)],
  },
  {
    name: 'a reply field removed',
    change: (d) => delete itemReply(d).properties.part_description,
    expected: [b('reply-field-removed', `${ITEM_REPLY}/properties/part_description`)],
  },
  {
    name: 'a reply field made optional',
    change: (d) => (itemReply(d).required = itemReply(d).required.filter((n: string) => n !== 'status_code')),
    expected: [b('reply-field-made-optional', `${ITEM_REPLY}/properties/status_code`)],
  },
  {
    name: "a reply field's type changed",
    change: (d) => (itemReply(d).properties.locations.items.properties.pack_quantity.type = 'string'),
    expected: [b('reply-type-changed', `${ITEM_REPLY}/properties/locations/items/properties/pack_quantity/type`)],
  },
  {
    name: "a reply field's type widened from integer to number",
    change: (d) => (itemReply(d).properties.locations.items.properties.pack_quantity.type = 'number'),
    expected: [b('reply-type-changed', `${ITEM_REPLY}/properties/locations/items/properties/pack_quantity/type`)],
  },
  {
    name: 'a reply enum widened',
    change: (d) => itemReply(d).properties.status_code.enum.push(5),
    expected: [b('reply-enum-widened', `${ITEM_REPLY}/properties/status_code/enum`)],
  },
  {
    name: 'a reply enum written as anyOf of consts widened',
    change: (d) => d.components.schemas.HealthReply.properties.status.anyOf.push({ const: 'degraded', type: 'string' }),
    expected: [b('reply-enum-widened', `${S}/HealthReply/properties/status/anyOf`, 'GET /health')],
  },
  {
    name: 'a reply enum narrowed',
    change: (d) => (itemReply(d).properties.locations.items.properties.type.enum = [1]),
    expected: [s('reply-enum-narrowed', `${ITEM_REPLY}/properties/locations/items/properties/type/enum`)],
  },
  {
    name: 'a request field newly required',
    change: (d) => d.components.schemas.ItemInquiryBuyerRequest.required.push('locations'),
    expected: [b('request-field-newly-required', `${S}/ItemInquiryBuyerRequest/properties/locations`)],
  },
  {
    name: 'a new optional request field',
    change: (d) => (itemRequest(d).properties.note = { type: 'string', maxLength: 100 }),
    expected: [s('request-field-added', `${ITEM_REQUEST}/properties/note`)],
  },
  {
    name: 'a request field made optional',
    change: (d) => (itemRequest(d).required = ['id', 'part_number']),
    expected: [s('request-field-made-optional', `${ITEM_REQUEST}/properties/mfr_code`)],
  },
  {
    name: 'a reply field added',
    change: (d) => (itemReply(d).properties.warranty = { type: 'string' }),
    expected: [s('reply-field-added', `${ITEM_REPLY}/properties/warranty`)],
  },
  {
    name: 'a reply field newly required',
    change: (d) => itemReply(d).required.push('weight'),
    expected: [s('reply-field-newly-required', `${ITEM_REPLY}/properties/weight`)],
  },
  {
    name: 'a new required query parameter',
    change: (d) =>
      d.paths['/search/products'].get.parameters.push({
        name: 'region',
        in: 'query',
        required: true,
        schema: { type: 'string' },
      }),
    expected: [b('request-parameter-newly-required', `${SEARCHP}/parameters/3`, SEARCH)],
  },
  {
    name: 'a new required header',
    change: (d) =>
      (d.paths['/json/federated/v3_2/item_inquiry'].post.parameters = [
        { name: 'X-Buyer-Region', in: 'header', required: true, schema: { type: 'string' } },
      ]),
    expected: [b('request-parameter-newly-required', `${IIP}/parameters/0`)],
  },
  {
    name: 'an optional query parameter made required',
    change: (d) => (d.paths['/search/products'].get.parameters[1].required = true),
    expected: [b('request-parameter-newly-required', `${SEARCHP}/parameters/1/required`, SEARCH)],
  },
  {
    name: 'a request enum narrowed',
    change: (d) =>
      (d.components.schemas.CatalogCategoriesRequest.properties.response_items.enum = ['all', 'categories']),
    expected: [
      b(
        'request-enum-narrowed',
        `${S}/CatalogCategoriesRequest/properties/response_items/enum`,
        'POST /catalog/categories',
      ),
    ],
  },
  {
    name: 'a request enum widened',
    change: (d) => d.components.schemas.CatalogCategoriesRequest.properties.response_items.enum.push('brands'),
    expected: [
      s(
        'request-enum-widened',
        `${S}/CatalogCategoriesRequest/properties/response_items/enum`,
        'POST /catalog/categories',
      ),
    ],
  },
  {
    name: 'a request maxLength lowered',
    change: (d) => (itemRequest(d).properties.part_number.maxLength = 50),
    expected: [b('request-range-narrowed', `${ITEM_REQUEST}/properties/part_number/maxLength`)],
  },
  {
    name: 'a request maxLength raised',
    change: (d) => (itemRequest(d).properties.part_number.maxLength = 200),
    expected: [s('request-range-loosened', `${ITEM_REQUEST}/properties/part_number/maxLength`)],
  },
  {
    name: 'a request minimum raised',
    change: (d) => (d.paths['/search/products'].get.parameters[1].schema.minimum = 5),
    expected: [b('request-range-narrowed', `${SEARCHP}/parameters/1/schema/minimum`, SEARCH)],
  },
  {
    name: 'a request inclusive minimum made exclusive',
    change: (d) => {
      const sku = d.components.schemas.ProductAvailabilityRequest.properties.sku;
      delete sku.minimum;
      sku.exclusiveMinimum = 1;
    },
    expected: [
      b(
        'request-range-narrowed',
        `${S}/ProductAvailabilityRequest/properties/sku/exclusiveMinimum`,
        'POST /catalog-session/api/availability',
      ),
    ],
  },
  {
    name: 'a request pattern changed',
    change: (d) => (itemRequest(d).properties.part_number.pattern = '^[A-Z0-9-]*$'),
    expected: [b('request-pattern-changed', `${ITEM_REQUEST}/properties/part_number/pattern`)],
  },
  {
    name: 'a request pattern added',
    change: (d) => (d.paths['/search/products'].get.parameters[0].schema.pattern = '^[a-z ]+$'),
    expected: [b('request-pattern-changed', `${SEARCHP}/parameters/0/schema/pattern`, SEARCH)],
  },
  {
    name: 'a request pattern removed',
    change: (d) => delete itemRequest(d).properties.part_number.pattern,
    expected: [s('request-pattern-removed', `${ITEM_REQUEST}/properties/part_number/pattern`)],
  },
  {
    name: 'a reply pattern added',
    change: (d) => (itemReply(d).properties.mfr_code.pattern = '^[A-Z]+$'),
    expected: [s('reply-pattern-added', `${ITEM_REPLY}/properties/mfr_code/pattern`)],
  },
  {
    name: 'a reply pattern changed',
    change: (d) => (itemReply(d).properties.mfr_code.pattern = '^[A-Z]+$'),
    onBase: true,
    expected: [b('reply-pattern-changed', `${ITEM_REPLY}/properties/mfr_code/pattern`)],
  },
  {
    name: 'a request type narrowed (number to integer)',
    change: (d) => (d.components.schemas.ProductAvailabilityRequest.properties.sku.type = 'number'),
    onBase: true,
    expected: [
      b(
        'request-type-narrowed',
        `${S}/ProductAvailabilityRequest/properties/sku/type`,
        'POST /catalog-session/api/availability',
      ),
    ],
  },
  {
    name: 'a request body content type removed',
    change: (d) => {
      const content = d.paths['/json/federated/v3_2/item_inquiry'].post.requestBody.content;
      content['application/vnd.fg+json'] = content['application/json'];
      delete content['application/json'];
    },
    expected: [
      b('request-body-content-type-removed', `${IIP}/requestBody/content/application~1json`),
      s('request-body-content-type-added', `${IIP}/requestBody/content/application~1vnd.fg+json`),
    ],
  },
  {
    name: 'additionalProperties: false newly set on a request',
    change: (d) => delete d.components.schemas.ProductAvailabilityRequest.additionalProperties,
    onBase: true,
    expected: [
      b(
        'request-additional-properties-closed',
        `${S}/ProductAvailabilityRequest/additionalProperties`,
        'POST /catalog-session/api/availability',
      ),
    ],
  },
  {
    name: 'a branch added to a reply anyOf',
    change: (d) =>
      d.components.schemas.CatalogVehiclesReply.anyOf.push({
        type: 'object',
        required: ['level'],
        properties: { level: { const: 'trims', type: 'string' } },
      }),
    expected: [b('reply-union-widened', `${S}/CatalogVehiclesReply/anyOf/5`, 'POST /catalog/vehicles')],
  },
  {
    name: 'a branch removed from a reply anyOf',
    change: (d) => d.components.schemas.CatalogVehiclesReply.anyOf.splice(4, 1),
    expected: [{ ...s('reply-union-narrowed', `${S}/CatalogVehiclesReply/anyOf/4`, 'POST /catalog/vehicles') }],
  },
  {
    name: 'a field changed inside one branch of a reordered reply anyOf',
    change: (d) => {
      const branches = d.components.schemas.CatalogVehiclesReply.anyOf;
      branches.reverse();
      const item = branches[0].properties.items.items;
      delete item.properties.name;
      item.required = item.required.filter((n: string) => n !== 'name');
    },
    // A removal points into base, where the branch is still the fifth.
    expected: [
      b(
        'reply-field-removed',
        `${S}/CatalogVehiclesReply/anyOf/4/properties/items/items/properties/name`,
        'POST /catalog/vehicles',
      ),
    ],
  },
  {
    name: 'a reply field made nullable',
    change: (d) => (itemReply(d).properties.comment = { anyOf: [itemReply(d).properties.comment, { type: 'null' }] }),
    expected: [b('reply-union-widened', `${ITEM_REPLY}/properties/comment/anyOf/1`)],
  },
  {
    name: 'a request field made nullable',
    change: (d) => (itemRequest(d).properties.id = { anyOf: [{ type: 'null' }, itemRequest(d).properties.id] }),
    expected: [s('request-union-widened', `${ITEM_REQUEST}/properties/id/anyOf/0`)],
  },
  {
    name: 'a summary reworded',
    change: (d) => (d.paths['/json/federated/v3_2/item_inquiry'].post.summary = 'Prices and stock'),
    expected: [s('wording-changed', `${IIP}/summary`)],
  },
  {
    name: 'a field description reworded',
    change: (d) => (itemRequest(d).properties.part_number.description = 'The part number'),
    expected: [s('wording-changed', `${ITEM_REQUEST}/properties/part_number/description`)],
  },
  {
    name: 'a request example changed',
    change: (d) =>
      (d.paths['/json/federated/v3_2/item_inquiry'].post.requestBody.content['application/json'].example = {
        items: [],
      }),
    expected: [s('example-changed', `${IIP}/requestBody/content/application~1json/example`)],
  },
  {
    name: 'an operation added',
    change: (d) =>
      (d.paths['/catalog-session/api/cart/items/{item_id}'].put =
        d.paths['/catalog-session/api/cart/items/{item_id}'].patch),
    expected: [
      s(
        'operation-added',
        '/paths/~1catalog-session~1api~1cart~1items~1{item_id}/put',
        'PUT /catalog-session/api/cart/items/{item_id}',
      ),
    ],
  },
  {
    name: 'a reply header removed',
    change: (d) =>
      delete d.paths['/json/federated/v3_2/item_inquiry'].post.responses['200'].headers['X-RateLimit-Reset'],
    expected: [b('reply-header-removed', `${IIP}/responses/200/headers/X-RateLimit-Reset`)],
  },
  {
    name: 'a reply header added',
    change: (d) =>
      (d.paths['/json/federated/v3_2/item_inquiry'].post.responses['200'].headers['X-Request-Id'] = {
        schema: { type: 'string' },
      }),
    expected: [s('reply-header-added', `${IIP}/responses/200/headers/X-Request-Id`)],
  },
  {
    name: 'a response media type replaced',
    change: (d) => {
      const content = d.paths['/health'].get.responses['200'].content;
      content['application/health+json'] = content['application/json'];
      delete content['application/json'];
    },
    expected: [
      b('response-content-type-removed', '/paths/~1health/get/responses/200/content/application~1json', 'GET /health'),
      s(
        'response-content-type-added',
        '/paths/~1health/get/responses/200/content/application~1health+json',
        'GET /health',
      ),
    ],
  },
  {
    name: 'an optional request body made required',
    change: (d) => (d.paths['/auth/get_catalog_token'].post.requestBody.required = true),
    expected: [
      b(
        'request-body-newly-required',
        '/paths/~1auth~1get_catalog_token/post/requestBody/required',
        'POST /auth/get_catalog_token',
      ),
    ],
  },
  {
    name: 'a request body made optional',
    change: (d) => (d.paths['/json/federated/v3_2/item_inquiry'].post.requestBody.required = false),
    expected: [s('request-body-made-optional', `${IIP}/requestBody/required`)],
  },
  {
    name: 'a request body removed',
    change: (d) => delete d.paths['/json/federated/v3_2/item_inquiry'].post.requestBody,
    expected: [b('request-body-removed', `${IIP}/requestBody`)],
  },
  {
    name: 'a query parameter removed',
    change: (d) => d.paths['/search/products'].get.parameters.pop(),
    expected: [b('request-parameter-removed', `${SEARCHP}/parameters/2`, SEARCH)],
  },
  {
    name: 'a required query parameter made optional',
    change: (d) => (d.paths['/search/products'].get.parameters[0].required = false),
    expected: [s('request-parameter-made-optional', `${SEARCHP}/parameters/0/required`, SEARCH)],
  },
  {
    name: 'an optional query parameter added',
    change: (d) =>
      d.paths['/search/products'].get.parameters.push({ name: 'sort', in: 'query', schema: { type: 'string' } }),
    expected: [s('request-parameter-added', `${SEARCHP}/parameters/3`, SEARCH)],
  },
  {
    name: 'the credentials an operation admits replaced',
    change: (d) => (d.paths['/json/federated/v3_2/item_inquiry'].post.security = [{ catalogSession: [] }]),
    // The alternative gone points into base, the new one into head.
    expected: [b('security-changed', `${IIP}/security/0`), s('security-alternative-added', `${IIP}/security/0`)],
  },
  {
    name: 'a credential alternative added',
    change: (d) => d.paths['/json/federated/v3_2/item_inquiry'].post.security.push({ catalogSession: [] }),
    expected: [s('security-alternative-added', `${IIP}/security/1`)],
  },
  {
    name: 'a request field removed',
    change: (d) => delete d.components.schemas.ItemInquiryBuyerRequest.properties.locations,
    expected: [b('request-field-removed', `${S}/ItemInquiryBuyerRequest/properties/locations`)],
  },
  {
    name: 'a reply maxLength raised',
    change: (d) => (itemReply(d).properties.part_number.maxLength = 100000),
    expected: [b('reply-range-widened', `${ITEM_REPLY}/properties/part_number/maxLength`)],
  },
  {
    name: 'a reply maxLength lowered',
    change: (d) => (itemReply(d).properties.part_number.maxLength = 1000),
    expected: [s('reply-range-narrowed', `${ITEM_REPLY}/properties/part_number/maxLength`)],
  },
  {
    name: 'a reply format dropped',
    change: (d) =>
      delete itemReply(d).properties.locations.items.properties.route_times.items.properties.cutoff_time.format,
    expected: [
      b(
        'reply-format-changed',
        `${ITEM_REPLY}/properties/locations/items/properties/route_times/items/properties/cutoff_time/format`,
      ),
    ],
  },
  {
    name: 'a reply format added',
    change: (d) => (itemReply(d).properties.id.format = 'uuid'),
    expected: [s('reply-format-added', `${ITEM_REPLY}/properties/id/format`)],
  },
  {
    name: 'a request format added',
    change: (d) => (d.paths['/search/products'].get.parameters[0].schema.format = 'uuid'),
    expected: [b('request-format-changed', `${SEARCHP}/parameters/0/schema/format`, SEARCH)],
  },
  {
    name: 'a request format dropped',
    change: (d) => (d.paths['/search/products'].get.parameters[0].schema.format = 'uuid'),
    onBase: true,
    expected: [s('request-format-removed', `${SEARCHP}/parameters/0/schema/format`, SEARCH)],
  },
  {
    name: "a query parameter's default changed",
    change: (d) => (d.paths['/search/products'].get.parameters[1].schema.default = 20),
    expected: [b('request-default-changed', `${SEARCHP}/parameters/1/schema/default`, SEARCH)],
  },
  {
    name: 'a reply default added',
    change: (d) => (itemReply(d).properties.comment.default = ''),
    expected: [s('reply-default-changed', `${ITEM_REPLY}/properties/comment/default`)],
  },
  {
    name: 'a reply object closed',
    change: (d) => (d.components.schemas.ItemInquiryBuyerReply.additionalProperties = false),
    expected: [s('reply-additional-properties-changed', `${S}/ItemInquiryBuyerReply/additionalProperties`)],
  },
  {
    name: 'a request object opened',
    change: (d) => delete d.components.schemas.ProductAvailabilityRequest.additionalProperties,
    expected: [
      s(
        'request-additional-properties-opened',
        `${S}/ProductAvailabilityRequest/additionalProperties`,
        'POST /catalog-session/api/availability',
      ),
    ],
  },
  {
    name: 'a `not` added to a request field',
    change: (d) => (itemRequest(d).properties.id.not = { const: '0' }),
    expected: [b('schema-changed', `${ITEM_REQUEST}/properties/id/not`)],
  },
  {
    name: 'an operation deprecated',
    change: (d) => (d.paths['/json/federated/v3_2/item_inquiry'].post.deprecated = true),
    expected: [s('deprecated', `${IIP}/deprecated`)],
  },
  {
    name: 'an operationId renamed',
    change: (d) => (d.paths['/json/federated/v3_2/item_inquiry'].post.operationId = 'itemInquiry'),
    expected: [s('operation-id-changed', `${IIP}/operationId`)],
  },
  {
    name: 'a request type widened (integer to number)',
    change: (d) => (d.components.schemas.ProductAvailabilityRequest.properties.sku.type = 'number'),
    expected: [
      s(
        'request-type-widened',
        `${S}/ProductAvailabilityRequest/properties/sku/type`,
        'POST /catalog-session/api/availability',
      ),
    ],
  },
  {
    name: 'a reply type narrowed (number to integer)',
    change: (d) => (itemReply(d).properties.weight.type = 'integer'),
    expected: [s('reply-type-narrowed', `${ITEM_REPLY}/properties/weight/type`)],
  },
  {
    name: 'a request field no longer nullable',
    change: (d) => (itemRequest(d).properties.id = { anyOf: [itemRequest(d).properties.id, { type: 'null' }] }),
    onBase: true,
    expected: [b('request-union-narrowed', `${ITEM_REQUEST}/properties/id/anyOf/1`)],
  },
];

describe('each policy rule on a mutation of the real buyer document', () => {
  for (const m of MUTATIONS) {
    it(`${m.name}: ${m.expected.map((e) => `${e.class} (${e.policy})`).join(', ')}`, () => {
      const mutated = structuredClone(BUYER);
      m.change(mutated);
      const [base, head] = m.onBase === true ? [mutated, BUYER] : [BUYER, mutated];
      const findings = compareOpenApiDocuments(base, head);
      // Only the expected operation is asserted; a shared component
      // is reported the same at every operation that reaches it.
      expect(findings.filter((f) => f.where === m.expected[0].where).map(brief)).toEqual(m.expected);
      const distinct = new Set(findings.map((f) => JSON.stringify({ ...brief(f), where: '' })));
      expect(distinct.size).toBe(m.expected.length);
    });
  }

  it('covers every rule of the policy', () => {
    const covered = new Set(MUTATIONS.flatMap((m) => m.expected.map((e) => e.policy)));
    expect(Object.keys(OPENAPI_POLICY).filter((policy) => !covered.has(policy))).toEqual([]);
  });
});

describe('the internal API document gets the same check', () => {
  const CREATE = 'POST /internal/users/create';
  const pin = `${S}/CreateUserRequest/properties/terminal_pin`;

  it('a request field no longer nullable: breaking (request-union-narrowed, at the branch in base)', () => {
    const head = structuredClone(INTERNAL);
    head.components.schemas.CreateUserRequest.properties.terminal_pin.anyOf.pop();
    expect(compareOpenApiDocuments(INTERNAL, head).map(brief)).toEqual([
      b('request-union-narrowed', `${pin}/anyOf/1`, CREATE),
    ]);
  });

  it('a request enum written as anyOf of consts narrowed: breaking (request-enum-narrowed)', () => {
    const head = structuredClone(INTERNAL);
    head.components.schemas.RegisterKeyRequest.properties.algorithm.anyOf.pop();
    expect(compareOpenApiDocuments(INTERNAL, head).map(brief)).toEqual([
      b('request-enum-narrowed', `${S}/RegisterKeyRequest/properties/algorithm/anyOf`, 'POST /internal/keys'),
    ]);
  });

  it('a path variable renamed ({kid} to {key_id}) is no change for a buyer', () => {
    const head = structuredClone(INTERNAL);
    const item = head.paths['/internal/keys/{kid}/revoke'];
    delete head.paths['/internal/keys/{kid}/revoke'];
    head.paths['/internal/keys/{key_id}/revoke'] = item;
    for (const parameter of item.post.parameters) if (parameter.in === 'path') parameter.name = 'key_id';
    expect(compareOpenApiDocuments(INTERNAL, head)).toEqual([]);
  });
});
