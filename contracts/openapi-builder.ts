// Builds an OpenAPI 3.1 document from a list of endpoints whose shapes are the contract's
// TypeBox schemas (never hand-written), each with every status it can answer, the error body
// of each, Retry-After where it is sent and an example of every request and reply. The
// gateway's and the internal API's documents are both made here.
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

export interface Endpoint {
  method: 'get' | 'post' | 'patch' | 'delete';
  path: string;
  summary: string;
  tag: string;
  description?: string;
  request?: { schema: TSchema; example: unknown; /** the body may be left out */ optional?: boolean };
  reply: {
    status: 200 | 201 | 204;
    schema?: TSchema;
    example?: unknown;
    /** Another media type than JSON (e.g. Prometheus text). */
    mediaType?: string;
    description?: string;
    headers?: Record<string, Json>;
  };
  /** Query or path parameters, as OpenAPI parameter objects (each with an example). */
  parameters?: Json[];
  /** Security scheme names, any one of which admits the request; [] for a public endpoint. */
  security: string[];
  errors: Record<number, ErrorAnswer>;
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
  tags: { name: string; description: string }[];
  securitySchemes: Record<string, Json>;
  /** Error body schemas by component name. */
  errorSchemas: Record<string, TSchema | Json>;
  endpoints: Endpoint[];
  sharedAnswers?: SharedAnswer[];
}

/** TypeBox schemas carry symbols JSON drops; a JSON round trip leaves plain JSON Schema. */
export function plain(schema: TSchema | Json): Json {
  return JSON.parse(JSON.stringify(schema)) as Json;
}

const componentName = (schema: TSchema, fallback: string) =>
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

export function buildOpenApiDocument(options: DocumentOptions): Json {
  const schemas: Json = {};
  for (const [name, schema] of Object.entries(options.errorSchemas)) schemas[name] = plain(schema);
  const ref = (schema: TSchema, fallback: string) => {
    const name = componentName(schema, fallback);
    schemas[name] ??= plain(schema);
    return { $ref: `#/components/schemas/${name}` };
  };
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
          example: e.reply.example,
        },
      };
    } else if (e.reply.mediaType !== undefined) {
      const schema = e.reply.mediaType.includes('json') ? { type: 'object' } : { type: 'string' };
      success.content = { [e.reply.mediaType]: { schema, example: e.reply.example } };
    }
    const responses: Json = { [e.reply.status]: success };
    for (const [status, answer] of Object.entries(e.errors).sort(([a], [b]) => Number(a) - Number(b))) {
      const response: Json = {
        description: answer.description,
        content: {
          'application/json': { schema: { $ref: `#/components/schemas/${answer.schema}` }, example: answer.example },
        },
      };
      if (answer.retryAfter === true) response.headers = { 'Retry-After': RETRY_AFTER };
      responses[status] = response;
    }
    for (const shared of options.sharedAnswers ?? []) {
      const own = responses[shared.status] as Json | undefined;
      if (own === undefined) {
        responses[shared.status] = { $ref: `#/components/responses/${shared.name}` };
        referenced[shared.name] = shared.response;
      } else
        own.description = `${String(own.description)}. Or, before the API sees the request: ${String(shared.response.description)}`;
    }
    const operation: Json = { operationId: operationIdOf(e.method, e.path), summary: e.summary, tags: [e.tag] };
    if (e.description !== undefined) operation.description = e.description;
    if (e.parameters !== undefined) operation.parameters = e.parameters;
    if (e.request !== undefined) {
      operation.requestBody = {
        required: e.request.optional !== true,
        content: { 'application/json': { schema: ref(e.request.schema, `${id} request`), example: e.request.example } },
      };
    }
    operation.security = e.security.map((name) => ({ [name]: [] }));
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
    servers: [{ url: options.serverUrl, description: options.serverDescription }],
    tags: options.tags,
    paths,
    components: {
      schemas,
      ...(Object.keys(referenced).length === 0 ? {} : { responses: referenced }),
      securitySchemes: options.securitySchemes,
    },
  };
}
