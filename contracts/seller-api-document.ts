// The OpenAPI 3.1 document of the seller system's API, as the gateway calls it: one POST at the
// address each member registers, its body one of the four forwarded requests (told apart by
// `service`), its reply the seller reply of that operation. Generated from the contract schemas
// and the reply-rule catalogue like the buyer and internal documents (the same builder), so a
// vendor's generated server types cannot drift from what the gateway sends and checks.
import type { TSchema } from '@sinclair/typebox';
import { CONTRACT_VERSION } from './contract-version';
import {
  buildOpenApiDocument,
  plain,
  type Endpoint,
  type ErrorAnswer,
  type Json,
  type NamedExamples,
} from './openapi-builder';
import { RULES, type RuleName } from './reply-rules/violation';
import { PAYLOADS, SERVICE_OF } from './schemas/index';
import { loadFixture } from './payload-examples';
import type { ForwardedOperation } from './reply-check';

/** The operations in the order the document lists them. */
export const SELLER_OPERATIONS = [
  'item-inquiry',
  'place-order',
  'invoice',
  'statement',
] as const satisfies readonly ForwardedOperation[];

/** ItemInquiry, PlaceOrder…: the stem of each operation's component names. */
const stem = (operation: ForwardedOperation) =>
  operation
    .split('-')
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join('');

/** What each operation's request is called in prose. */
const NAMED: Record<ForwardedOperation, string> = {
  'item-inquiry': 'an item inquiry',
  'place-order': 'an order',
  invoice: 'an invoice request',
  statement: 'a statement request',
};

/** ItemInquirySellerRequest, ItemInquirySellerReply…: the TypeBox names, which generators turn into type names. */
export const requestComponent = (operation: ForwardedOperation) => `${stem(operation)}SellerRequest`;
export const replyComponent = (operation: ForwardedOperation) => `${stem(operation)}SellerReply`;

/** camelCase: the key of each operation's named examples. */
const exampleKey = (operation: ForwardedOperation) => stem(operation)[0].toLowerCase() + stem(operation).slice(1);

/**
 * The reply rules that judge each operation's reply, by the prefix of their names; the overall
 * status code (`reply.status-code`) is on item inquiry and place order replies. A test holds
 * every rule of the catalogue to one operation at least.
 */
export function rulesOf(operation: ForwardedOperation): RuleName[] {
  const prefixes: Record<ForwardedOperation, string[]> = {
    'item-inquiry': ['item.', 'alternate.', 'location.', 'reply.'],
    'place-order': ['order.', 'reply.'],
    invoice: ['invoice.'],
    statement: ['statement.'],
  };
  return (Object.keys(RULES) as RuleName[]).filter((rule) => prefixes[operation].some((p) => rule.startsWith(p)));
}

/** The rules as a reader of the reply meets them: one Markdown line each, named as reports name them. */
export function replyRulesText(operation: ForwardedOperation): string {
  return rulesOf(operation)
    .map((rule) => `- \`${rule}\`: ${RULES[rule]}`)
    .join('\n');
}

const SERVICE_TABLE = SELLER_OPERATIONS.map(
  (o) => `| \`${SERVICE_OF[o]}\` | \`${requestComponent(o)}\` | \`${replyComponent(o)}\` |`,
).join('\n');

/** A seller reply's component: its schema, and in its description the rules no schema can state. */
function replySchema(operation: ForwardedOperation): Json {
  const schema = plain(PAYLOADS[operation]['seller-reply'] as TSchema);
  return {
    ...schema,
    description:
      `The reply to ${NAMED[operation]} (service \`${SERVICE_OF[operation]}\`). Beyond this schema the gateway checks these reply ` +
      `rules, each reported under its name; a reply that breaks one is refused (or, for a member set to ` +
      `lenient, passed on with a warning):\n\n${replyRulesText(operation)}`,
    'x-reply-rules': rulesOf(operation),
  };
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const examples = (payload: 'seller-request' | 'seller-reply'): NamedExamples =>
  Object.fromEntries(
    SELLER_OPERATIONS.map((o) => [
      exampleKey(o),
      {
        summary:
          payload === 'seller-request'
            ? `${NAMED[o][0].toUpperCase()}${NAMED[o].slice(1)} (service ${SERVICE_OF[o]})`
            : `The reply to ${NAMED[o]}`,
        value: loadFixture(o, payload) as unknown,
      },
    ]),
  );

/** A failure answer: any body, kept (its first 2,000 characters) for the gateway's logs and the kit's reports. */
const failure = (description: string, message: string): ErrorAnswer => ({
  schema: 'SellerFailureReply',
  description,
  example: { message },
});

export const SELLER_FAILURE_REPLY = {
  title: 'Seller failure reply',
  description:
    'What a seller may send with an HTTP error status. The gateway reads no field of it: any body (JSON or not) ' +
    'is kept, its first 2,000 characters, for the gateway log and the verification report. A `message` helps ' +
    'whoever reads them.',
  type: 'object',
  properties: { message: { type: 'string', description: 'What went wrong, for a person' } },
  additionalProperties: true,
};

const DESCRIPTION = `The API a seller system serves for the Federated Gateway: the gateway forwards each buyer's
item inquiry, order, invoice and statement request, enriched with the buyer's locations and accounts, to the
seller system of each member concerned, and checks the reply before any of it reaches the buyer.

One endpoint: \`POST\` at the address the member registered (the \`seller_url\` variable; the path is the
vendor's own choice, so the document's path is \`/\`). The body's \`service\` names the operation, and the
reply must be that operation's:

| \`service\` | request | reply |
|---|---|---|
${SERVICE_TABLE}

Generated from the contract's TypeBox schemas and reply-rule catalogue (contract ${CONTRACT_VERSION}); the
pact (contracts/pacts/) holds the interactions a seller system is verified against.`;

const REPLY_DESCRIPTION = `The seller's reply, with HTTP 200 and a JSON body: the reply of the operation the request's
\`service\` names (see the table in the document's description). A business failure is a reply too: item
inquiry and place order say it in the overall \`status_code\` (2000 is success; 3000–5503 the common codes,
e.g. 3210 credit limit), invoice and statement with \`status\` other than "success" and an
\`error_description\`. Each reply component's description lists the reply rules the gateway checks beyond
its schema.`;

/** The `service` value of each operation → its component. */
const mapping = (component: (o: ForwardedOperation) => string) =>
  Object.fromEntries(SELLER_OPERATIONS.map((o) => [SERVICE_OF[o], `#/components/schemas/${component(o)}`]));

/** The one operation: every forwarded request, every reply, every failure a seller may answer. */
function sellerEndpoint(): Endpoint {
  return {
    method: 'post',
    path: '/',
    operationId: 'answerForwardedRequest',
    summary: 'Answer a forwarded request',
    tag: 'Seller',
    description:
      'Every forwarded operation comes here; `service` in the body says which. The gateway sends ' +
      '`Content-Type` and `Accept: application/json`, the credentials the member registered (or none), and ' +
      "waits up to the member's timeout for the whole reply.",
    parameters: [
      {
        name: 'X-Request-Id',
        in: 'header',
        required: false,
        description: "The buyer request's id, the same in the gateway's logs: quote it when asking",
        schema: { type: 'string' },
        example: 'req-7f3a9c',
      },
    ],
    request: {
      description: "A forwarded request: the buyer request with the buyer's locations, members and accounts",
      schema: {
        title: 'Seller request',
        oneOf: SELLER_OPERATIONS.map((o) => ref(requestComponent(o))),
        discriminator: { propertyName: 'service', mapping: mapping(requestComponent) },
      },
      examples: examples('seller-request'),
    },
    reply: {
      status: 200,
      description: REPLY_DESCRIPTION,
      // anyOf, not oneOf: replies carry no discriminator and are open objects, so one body may match two
      // (an order reply with no items is an item inquiry reply too); the request's service says which it is.
      schema: { title: 'Seller reply', anyOf: SELLER_OPERATIONS.map((o) => ref(replyComponent(o))) },
      examples: examples('seller-reply'),
    },
    security: ['sellerBearer', 'sellerBasic'],
    anonymous: true,
    errors: {
      503: failure(
        'The seller declines for now (maintenance, overload): the buyer gets 503 (5503, service offline), ' +
          'and an order is known not to be placed',
        'down for maintenance until 02:00 UTC',
      ),
      '4XX': failure(
        'The seller refuses what was sent: the buyer gets 502 (5500, system error), and an order is known ' +
          'not to be placed. A mismatch of contract between gateway and seller, never a business answer',
        'unknown account A-1001',
      ),
      '5XX': failure(
        'The seller failed: the buyer gets 503 (5503, service offline); whether an order was placed is ' +
          "unknown. Repeated failures open the gateway's circuit breaker for the member",
        'internal error',
      ),
    },
  };
}

/** The document's title, by which compat tells it from a buyer's document. */
export const SELLER_API_TITLE = 'Federated Gateway seller system API';

/** The seller API document; `sellerUrl` the default of the `seller_url` server variable. */
export function sellerApiDocument(options: { sellerUrl?: string } = {}): Json {
  const schemas: Record<string, Json> = {};
  for (const o of SELLER_OPERATIONS) {
    schemas[requestComponent(o)] = plain(PAYLOADS[o]['seller-request'] as TSchema);
    schemas[replyComponent(o)] = replySchema(o);
  }
  return buildOpenApiDocument({
    title: SELLER_API_TITLE,
    version: CONTRACT_VERSION,
    description: DESCRIPTION,
    serverUrl: '{seller_url}',
    serverDescription: 'The seller system, at the URL its member registered with the gateway',
    serverVariables: {
      seller_url: {
        default: options.sellerUrl ?? 'http://127.0.0.1:9090/seller',
        description: "The seller endpoint's full URL (the mock seller's by default)",
      },
    },
    tags: [{ name: 'Seller', description: 'What the gateway calls on a seller system' }],
    securitySchemes: {
      sellerBearer: {
        type: 'http',
        scheme: 'bearer',
        description: "Sent when the member's directory entry holds a bearer token for its seller system",
      },
      sellerBasic: {
        type: 'http',
        scheme: 'basic',
        description: "Sent when the member's directory entry holds a user name and password",
      },
    },
    schemas,
    errorSchemas: { SellerFailureReply: SELLER_FAILURE_REPLY },
    endpoints: [sellerEndpoint()],
  });
}
