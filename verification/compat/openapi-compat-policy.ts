// The buyer-side policy: every rule an OpenAPI comparison can cite, with its class and an
// example. The class of a finding comes only from here, so a rule cannot be breaking in one
// place and safe in another. Request schemas are contravariant (the buyer writes them: head
// must accept all base accepted), reply schemas covariant (the buyer reads them: head may only
// send what base could).
import type { CompatClass } from './compat-finding';

type BuyerClass = Extract<CompatClass, 'breaking' | 'safe'>;

interface PolicyRule {
  class: BuyerClass;
  example: string;
}

export const OPENAPI_POLICY = {
  'path-removed': { class: 'breaking', example: 'GET /search/vehicles gone from the document' },
  'path-added': { class: 'safe', example: 'POST /json/federated/v3_3/item_inquiry appears' },
  'operation-removed': { class: 'breaking', example: 'DELETE /cart/items/{item_id} gone, GET left' },
  'operation-added': { class: 'safe', example: 'PUT /cart/items/{item_id} appears' },
  'response-status-removed': { class: 'breaking', example: '409 no longer answered by place order' },
  'response-status-added': { class: 'safe', example: 'item inquiry documents a 404' },
  'response-content-type-removed': { class: 'breaking', example: 'a 200 no longer offered as application/json' },
  'response-content-type-added': { class: 'safe', example: 'a 200 also offered as application/xml' },
  'reply-header-removed': { class: 'breaking', example: 'X-RateLimit-Reset no longer documented on the 200' },
  'reply-header-added': { class: 'safe', example: 'a 200 documents X-Request-Id' },
  'request-body-content-type-removed': {
    class: 'breaking',
    example: 'the body no longer accepted as application/json',
  },
  'request-body-content-type-added': { class: 'safe', example: 'the body also accepted as application/xml' },
  'request-body-newly-required': {
    class: 'breaking',
    example: 'requestBody.required false → true (or a required body appears)',
  },
  'request-body-made-optional': {
    class: 'safe',
    example: 'requestBody.required true → false (or an optional body appears)',
  },
  'request-body-removed': { class: 'breaking', example: 'an operation stops reading the body the buyer sends' },
  'request-parameter-newly-required': {
    class: 'breaking',
    example: 'a new required query parameter `region`, or `limit` made required',
  },
  'request-parameter-added': { class: 'safe', example: 'a new optional query parameter `sort`' },
  'request-parameter-made-optional': { class: 'safe', example: '`query` no longer required' },
  'request-parameter-removed': {
    class: 'breaking',
    example: '`offset` no longer read: the buyer sends it and it is ignored or refused',
  },
  'security-changed': { class: 'breaking', example: 'an operation no longer admits the buyer JWT alone' },
  'security-alternative-added': { class: 'safe', example: 'an operation also admits an API key' },
  'request-field-newly-required': {
    class: 'breaking',
    example: '`locations` becomes required in the item inquiry request',
  },
  'request-field-added': { class: 'safe', example: 'a new optional `note` in the request' },
  'request-field-made-optional': { class: 'safe', example: '`items[].mfr_code` no longer required' },
  'request-field-removed': {
    class: 'breaking',
    example: '`locations` dropped from the request: the buyer sends it and it is refused or ignored',
  },
  'reply-field-removed': { class: 'breaking', example: '`items[].part_description` dropped from the reply' },
  'reply-field-made-optional': { class: 'breaking', example: '`items[].status_code` no longer required in the reply' },
  'reply-field-added': { class: 'safe', example: 'a new `items[].warranty` in the reply' },
  'reply-field-newly-required': { class: 'safe', example: '`items[].weight` always sent' },
  'request-type-narrowed': { class: 'breaking', example: 'a request `quantity` number → integer' },
  'request-type-widened': { class: 'safe', example: 'a request `quantity` integer → number' },
  'reply-type-changed': { class: 'breaking', example: 'a reply `pack_quantity` integer → number (or string)' },
  'reply-type-narrowed': { class: 'safe', example: 'a reply `weight` number → integer' },
  'request-enum-narrowed': { class: 'breaking', example: 'request `response_items` loses "part_types"' },
  'request-enum-widened': { class: 'safe', example: 'request `response_items` gains "brands"' },
  'reply-enum-widened': { class: 'breaking', example: 'reply `items[].status_code` gains 5' },
  'reply-enum-narrowed': { class: 'safe', example: 'reply `locations[].type` loses 2' },
  'request-union-narrowed': { class: 'breaking', example: 'a request anyOf loses a branch' },
  'request-union-widened': { class: 'safe', example: 'a request anyOf gains a branch (or null)' },
  'reply-union-widened': { class: 'breaking', example: 'a reply anyOf gains a branch (or null)' },
  'reply-union-narrowed': { class: 'safe', example: 'a reply anyOf loses a branch' },
  'request-range-narrowed': {
    class: 'breaking',
    example: 'request `part_number` maxLength 100 → 50, minimum raised, uniqueItems set',
  },
  'request-range-loosened': { class: 'safe', example: 'request `part_number` maxLength 100 → 200' },
  'reply-range-widened': { class: 'breaking', example: 'reply `pack_code` maxLength 10 → 40, minimum lowered' },
  'reply-range-narrowed': { class: 'safe', example: 'reply `cost` gains maximum 1e9' },
  'request-pattern-changed': { class: 'breaking', example: 'request `id` pattern added or changed' },
  'request-pattern-removed': { class: 'safe', example: 'request `id` pattern dropped' },
  'reply-pattern-changed': {
    class: 'breaking',
    example: 'reply `invoice_date` pattern changed or dropped (a buyer parsing by it may fail)',
  },
  'reply-pattern-added': { class: 'safe', example: 'reply `invoice_date` gains ^\\d{4}-\\d{2}-\\d{2}$' },
  'request-format-changed': { class: 'breaking', example: 'request `email` gains format email' },
  'request-format-removed': { class: 'safe', example: 'request `email` loses its format' },
  'reply-format-changed': { class: 'breaking', example: 'reply `cutoff_time` format route-time dropped or changed' },
  'reply-format-added': { class: 'safe', example: 'reply `created_at` gains format date-time' },
  'request-additional-properties-closed': {
    class: 'breaking',
    example: 'a request object gains additionalProperties: false',
  },
  'request-additional-properties-opened': {
    class: 'safe',
    example: 'a request object loses additionalProperties: false',
  },
  'reply-additional-properties-changed': {
    class: 'safe',
    example: 'a reply object opened or closed (buyers ignore unknown fields)',
  },
  'request-default-changed': {
    class: 'breaking',
    example: 'query `limit` default 10 → 20: a buyer that omits it gets another answer',
  },
  'reply-default-changed': { class: 'safe', example: 'a reply field default (an annotation there) changed' },
  'schema-changed': { class: 'breaking', example: 'a `not`, `if`, `const` … keyword changed that no rule above reads' },
  deprecated: { class: 'safe', example: 'an operation, parameter or field marked deprecated' },
  'operation-id-changed': {
    class: 'safe',
    example: 'operationId renamed (generated clients rename a method; the wire is unchanged)',
  },
  'wording-changed': { class: 'safe', example: 'a summary, description, title or tag reworded' },
  'example-changed': { class: 'safe', example: 'an example of a request, reply or parameter changed' },
} as const satisfies Record<string, PolicyRule>;

export type OpenApiPolicy = keyof typeof OPENAPI_POLICY;

/** Which way a schema is read: the buyer writes requests and reads replies. */
export type Direction = 'request' | 'reply';
