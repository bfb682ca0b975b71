// Builds an OpenAPI 3.1 document from a list of endpoints whose shapes are the contract's
// TypeBox schemas (never hand-written), each with every status it can answer, the error body
// of each, Retry-After where it is sent and an example of every request and reply. The
// gateway's, the internal API's and the seller API's documents are all made here: in contracts/
// so that the mock seller, which may not import the gateway, serves the seller's.
import type { TSchema } from '@sinclair/typebox';

export type Json = Record<string, unknown>;

/** One answer of an operation other than its success. */
export interface ErrorAnswer {
  /** The body's schema, as a component name of `errorSchemas`. */
  schema: string;
  /** What this status means here. */
  description: string;
  example: unknown;
  /** Sent with a Retry-After header (seconds). */
  retryAfter?: boolean;
}

/** Named examples of one body (OpenAPI `examples`), where one `example` is not enough. */
export type NamedExamples = Record<string, { summary: string; description?: string; value: unknown }>;

export interface Endpoint {
  method: 'get' | 'post' | 'patch' | 'delete';
  path: string;
  summary: string;
  tag: string;
  description?: string;
  /** Where method and path make a poor name (a path of `/`); else operationIdOf(method, path). */
  operationId?: string;
  /** A schema with a title names its component; a union of components (a `oneOf` of $refs) may be a Json schema. */
  request?: {
    schema: TSchema | Json;
    example?: unknown;
    examples?: NamedExamples;
    /** the body may be left out */ optional?: boolean;
    description?: string;
  };
  reply: {
    status: 200 | 201 | 202 | 204;
    schema?: TSchema | Json;
    example?: unknown;
    examples?: NamedExamples;
    /** Another media type than JSON (e.g. Prometheus text). */
    mediaType?: string;
    description?: string;
    headers?: Record<string, Json>;
  };
  /** Query or path parameters, as OpenAPI parameter objects (each with an example). */
  parameters?: Json[];
  /** Security scheme names, any one of which admits the request; [] for a public endpoint. */
  security: string[];
  /** With `security`: a request carrying none of them is admitted too (an empty alternative). */
  anonymous?: boolean;
  /** By status, or a class of them ('4XX', '5XX'). */
  errors: Record<number | `${number}XX`, ErrorAnswer>;
}

/**
 * An answer every operation can get that is not the operation's own (Node's HTTP server's,
 * shared/http/server-answers.ts): one components.responses entry, referenced from each
 * operation; where an operation answers the same status itself, its own response stays and
 * its description says the server's may come instead.
 */
export interface SharedAnswer {
  status: number;
  /** Its components.responses name. */
  name: string;
  response: Json;
}

export interface DocumentOptions {
  title: string;
  version: string;
  description: string;
  serverUrl: string;
  serverDescription: string;
  /** Variables of the server URL (`{seller_url}`), each with its default and description. */
  serverVariables?: Record<string, Json>;
  tags: { name: string; description: string }[];
  securitySchemes: Record<string, Json>;
  /** Error body schemas by component name. */
  errorSchemas: Record<string, TSchema | Json>;
  /** Further component schemas by name (the branches a union refers to), before any the endpoints add. */
  schemas?: Record<string, TSchema | Json>;
  endpoints: Endpoint[];
  sharedAnswers?: SharedAnswer[];
}

/** TypeBox schemas carry symbols JSON drops; a JSON round trip leaves plain JSON Schema. */
export function plain(schema: TSchema | Json): Json {
  return JSON.parse(JSON.stringify(schema)) as Json;
}

const componentName = (schema: TSchema | Json, fallback: string) =>
  (typeof schema.title === 'string' ? schema.title : fallback)
    .replace(/[^A-Za-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join('');

/** postJsonFederatedV32ItemInquiry: the method and the path, camel-cased. */
export const operationIdOf = (method: string, path: string) =>
  `${method}${path.replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : ''))}`;

const RETRY_AFTER = {
  description: 'Seconds after which the same request may succeed',
  schema: { type: 'integer', minimum: 1 },
  example: 5,
};

/** `examples` when named ones are given, else the one `example`. */
const examplesOf = (body: { example?: unknown; examples?: NamedExamples }): Json =>
  body.examples === undefined ? { example: body.example } : { examples: body.examples };

/** An operation's answers other than its success, by status. */
function errorResponses(errors: Endpoint['errors']): Json {
  const responses: Json = {};
  // Statuses in order, then classes ('4XX', '5XX'): JavaScript keeps integer keys first anyway.
  for (const [status, answer] of Object.entries(errors).sort(([a], [b]) => a.localeCompare(b))) {
    const response: Json = {
      description: answer.description,
      content: {
        'application/json': { schema: { $ref: `#/components/schemas/${answer.schema}` }, example: answer.example },
      },
    };
    if (answer.retryAfter === true) response.headers = { 'Retry-After': RETRY_AFTER };
    responses[status] = response;
  }
  return responses;
}

export function buildOpenApiDocument(options: DocumentOptions): Json {
  const schemas: Json = {};
  for (const [name, schema] of Object.entries({ ...options.schemas, ...options.errorSchemas }))
    schemas[name] = plain(schema);
  const ref = (schema: TSchema | Json, fallback: string) => {
    const name = componentName(schema, fallback);
    schemas[name] ??= plain(schema);
    return { $ref: `#/components/schemas/${name}` };
  };
  const variables = options.serverVariables === undefined ? {} : { variables: options.serverVariables };
  const paths: Record<string, Json> = {};
  // Only the shared answers some operation refers to (where every operation answers a status itself, none does).
  const referenced: Json = {};
  for (const e of options.endpoints) {
    const id = `${e.method} ${e.path}`;
    const success: Json = { description: e.reply.description ?? 'Success' };
    if (e.reply.headers !== undefined) success.headers = e.reply.headers;
    if (e.reply.schema !== undefined) {
      success.content = {
        [e.reply.mediaType ?? 'application/json']: {
          schema: ref(e.reply.schema, `${id} reply`),
          ...examplesOf(e.reply),
        },
      };
    } else if (e.reply.mediaType !== undefined) {
      const schema = e.reply.mediaType.includes('json') ? { type: 'object' } : { type: 'string' };
      success.content = { [e.reply.mediaType]: { schema, example: e.reply.example } };
    }
    const responses: Json = { [e.reply.status]: success, ...errorResponses(e.errors) };
    for (const shared of options.sharedAnswers ?? []) {
      const own = responses[shared.status] as Json | undefined;
      if (own === undefined) {
        responses[shared.status] = { $ref: `#/components/responses/${shared.name}` };
        referenced[shared.name] = shared.response;
      } else
        own.description = `${String(own.description)}. Or, before the API sees the request: ${String(shared.response.description)}`;
    }
    const operation: Json = {
      operationId: e.operationId ?? operationIdOf(e.method, e.path),
      summary: e.summary,
      tags: [e.tag],
    };
    if (e.description !== undefined) operation.description = e.description;
    if (e.parameters !== undefined) operation.parameters = e.parameters;
    if (e.request !== undefined) {
      operation.requestBody = {
        ...(e.request.description === undefined ? {} : { description: e.request.description }),
        required: e.request.optional !== true,
        content: { 'application/json': { schema: ref(e.request.schema, `${id} request`), ...examplesOf(e.request) } },
      };
    }
    operation.security = [...(e.anonymous === true ? [{}] : []), ...e.security.map((name) => ({ [name]: [] }))];
    operation.responses = responses;
    (paths[e.path] ??= {})[e.method] = operation;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: options.title,
      version: options.version,
      description: options.description,
      // OpenAPI 3.1: identifier (SPDX) and url are mutually exclusive.
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    servers: [{ url: options.serverUrl, description: options.serverDescription, ...variables }],
    tags: options.tags,
    paths,
    components: {
      schemas,
      ...(Object.keys(referenced).length === 0 ? {} : { responses: referenced }),
      securitySchemes: options.securitySchemes,
    },
  };
}
