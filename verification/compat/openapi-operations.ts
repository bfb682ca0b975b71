// Reading operations out of an OpenAPI document: which methods, where an operation stands
// (its JSON pointer) and how findings name it.
import { isObject, pointerChild, resolvePointer, type JsonObject } from './openapi-refs';

/** One operation of a document, as the comparison reads it. */
export interface DocumentOperation {
  document: unknown;
  method: string;
  path: string;
}

export const objectAt = (document: unknown, at: string): JsonObject | undefined => {
  const node = resolvePointer(document, `#${at}`);
  return isObject(node) ? node : undefined;
};

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export const operationPointer = (path: string, method: string) => pointerChild('', 'paths', path, method);

/** `METHOD /path`, as findings name an operation. */
export const whereOf = (o: { method: string; path: string }) => `${o.method.toUpperCase()} ${o.path}`;
