// Reads an OpenAPI document back: its operations, and each response's or request's schema with
// its $refs resolved, ready for the project's Ajv (contracts/validator.ts). Used by the tests
// that check the examples and by the fuzzer that checks served replies.
import type { TSchema } from '@sinclair/typebox';
import { compileValidator, type Validator } from '../../contracts/index';
import type { Json } from '../../contracts/openapi-builder';

export interface DocumentOperation {
  operationId: string;
  method: string;
  path: string;
  security: Json[];
  parameters: Json[];
  requestBody?: { required?: boolean; content: Record<string, { schema: Json; example?: unknown }> };
  /** Shared responses (#/components/responses/…) resolved. */
  responses: Record<string, DocumentResponse>;
}

export interface DocumentResponse {
  description?: string;
  content?: Record<string, { schema: Json; example?: unknown }>;
  headers?: Record<string, Json>;
  /** Set on an answer Node's HTTP server gives before the API sees the request (server-answer-responses.ts). */
  'x-answered-by'?: string;
}

export function operationsOf(document: Json): DocumentOperation[] {
  const paths = document.paths as Record<string, Record<string, Json>>;
  const shared = ((document.components as Json | undefined)?.responses ?? {}) as Record<string, DocumentResponse>;
  const resolved = (responses: Record<string, DocumentResponse & { $ref?: string }>) =>
    Object.fromEntries(
      Object.entries(responses).map(([status, r]) => [
        status,
        r.$ref?.startsWith('#/components/responses/') === true ? shared[r.$ref.split('/').pop()!] : r,
      ]),
    );
  return Object.entries(paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({
      operationId: op.operationId as string,
      method,
      path,
      security: (op.security as Json[] | undefined) ?? [],
      parameters: (op.parameters as Json[] | undefined) ?? [],
      requestBody: op.requestBody as DocumentOperation['requestBody'],
      responses: resolved(op.responses as Record<string, DocumentResponse>),
    })),
  );
}

/** The schema with every #/components/schemas/… reference replaced by its target (ours hold no cycles). */
export function resolveRefs(document: Json, schema: unknown): unknown {
  const components = (document.components as { schemas: Record<string, unknown> }).schemas;
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (node === null || typeof node !== 'object') return node;
    const ref = (node as { $ref?: unknown }).$ref;
    if (typeof ref === 'string' && ref.startsWith('#/components/schemas/'))
      return walk(components[ref.slice('#/components/schemas/'.length)]);
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, walk(v)]));
  };
  return walk(schema);
}

/** A validator per schema object of one document, compiled once. */
export function documentValidators(document: Json): (schema: Json) => Validator<unknown> {
  const compiled = new Map<string, Validator<unknown>>();
  return (schema) => {
    const key = JSON.stringify(schema);
    let validator = compiled.get(key);
    if (validator === undefined) {
      validator = compileValidator(resolveRefs(document, schema) as TSchema);
      compiled.set(key, validator);
    }
    return validator;
  };
}
