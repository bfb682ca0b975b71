// Reading a vendor's own OpenAPI document for `check-openapi`: JSON or YAML, OpenAPI 3.0 or
// 3.1, every local $ref resolving. Anything else is bad input, told in one line that names the
// file, before anything is checked.
import { readFileSync } from 'node:fs';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020';
import { parse as parseYaml } from 'yaml';
import { FORMATS } from '../../contracts/formats';
import { isObject, pointerChild, resolvePointer, type JsonObject } from '../compat/openapi-refs';

/** Input that cannot be checked: the message names the file and the reason. */
export class VendorDocumentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'VendorDocumentError';
  }
}

export interface VendorDocument {
  file: string;
  /** The document as a 3.1 reader sees it: a 3.0 document's `nullable` already a type union. */
  document: JsonObject;
  version: '3.0' | '3.1';
}

/** The document at `file`, read and checked; VendorDocumentError when it cannot be. */
export function readVendorDocument(file: string): VendorDocument {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new VendorDocumentError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  return vendorDocumentOf(file, parsedText(file, text));
}

const firstLine = (message: string) => message.split('\n')[0];

/** A `.yaml`/`.yml` file as YAML; anything else as JSON, or as YAML when it is not JSON. */
function parsedText(file: string, text: string): unknown {
  const yamlName = /\.ya?ml$/i.test(file);
  let jsonError: string | undefined;
  if (!yamlName)
    try {
      return JSON.parse(text);
    } catch (error) {
      jsonError = (error as Error).message;
    }
  try {
    return parseYaml(text, { maxAliasCount: 1_000 });
  } catch (error) {
    const yamlError = firstLine((error as Error).message);
    throw new VendorDocumentError(
      jsonError === undefined
        ? `${file} is not YAML (${yamlError})`
        : `${file} is neither JSON (${jsonError}) nor YAML (${yamlError})`,
    );
  }
}

/** A parsed document checked as readVendorDocument checks a file's. */
export function vendorDocumentOf(file: string, parsed: unknown): VendorDocument {
  if (!isObject(parsed)) throw new VendorDocumentError(`${file} is not an OpenAPI document (not an object)`);
  if (parsed.swagger !== undefined)
    throw new VendorDocumentError(`${file}: Swagger 2.0 is not supported: convert it to OpenAPI 3 first`);
  const openapi = parsed.openapi;
  if (typeof openapi !== 'string')
    throw new VendorDocumentError(`${file} is not an OpenAPI document (it has no "openapi" field)`);
  const version = openapi.startsWith('3.0') ? '3.0' : openapi.startsWith('3.1') ? '3.1' : undefined;
  if (version === undefined)
    throw new VendorDocumentError(`${file}: OpenAPI ${openapi} is not supported (3.0 and 3.1 are read)`);
  if (!isObject(parsed.paths)) throw new VendorDocumentError(`${file} is not an OpenAPI document (it has no "paths")`);
  const dangling = danglingRef(parsed, parsed, '');
  if (dangling !== undefined)
    throw new VendorDocumentError(`${file}: $ref '${dangling.ref}' at ${dangling.at || '/'} resolves nowhere`);
  const document = version === '3.0' ? (as31(parsed) as JsonObject) : parsed;
  return { file, document, version };
}

/** The first $ref that is not a local reference to something in the document. */
function danglingRef(document: unknown, node: unknown, at: string): { ref: string; at: string } | undefined {
  if (Array.isArray(node)) {
    for (const [i, item] of node.entries()) {
      const found = danglingRef(document, item, pointerChild(at, i));
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (!isObject(node)) return undefined;
  if (typeof node.$ref === 'string' && resolvePointer(document, node.$ref) === undefined)
    return { ref: node.$ref, at: pointerChild(at, '$ref') };
  for (const [key, value] of Object.entries(node)) {
    // Examples are values, not schemas: a `$ref` key inside one is data.
    if (key === 'example' || key === 'examples' || key === 'enum' || key === 'const') continue;
    const found = danglingRef(document, value, pointerChild(at, key));
    if (found !== undefined) return found;
  }
  return undefined;
}

/** OpenAPI 3.0's schema dialect as JSON Schema 2020-12: `nullable` a type union, boolean exclusive bounds numbers. */
export function as31(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(as31);
  if (!isObject(node)) return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node))
    out[key] = key === 'example' || key === 'examples' || key === 'enum' || key === 'default' ? value : as31(value);
  if (out.nullable === true) {
    delete out.nullable;
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    else if (Array.isArray(out.type) && !out.type.includes('null')) out.type = [...(out.type as unknown[]), 'null'];
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...(out.enum as unknown[]), null];
  } else if (out.nullable === false) delete out.nullable;
  for (const [bound, exclusive] of [
    ['minimum', 'exclusiveMinimum'],
    ['maximum', 'exclusiveMaximum'],
  ] as const) {
    if (out[exclusive] === true && typeof out[bound] === 'number') {
      out[exclusive] = out[bound];
      delete out[bound];
    } else if (out[exclusive] === false) delete out[exclusive];
  }
  return out;
}

/** The POST paths of a document. */
export const postPaths = (document: JsonObject): string[] =>
  Object.entries(isObject(document.paths) ? document.paths : {})
    .filter(([, item]) => isObject(item) && isObject(item.post))
    .map(([path]) => path);

/** The path to check: the one given, else the document's only POST path, else `/`; ambiguous is bad input. */
export function chosenPath(vendor: VendorDocument, given: string | undefined): string {
  if (given !== undefined) return given;
  const posts = postPaths(vendor.document);
  if (posts.length > 1)
    throw new VendorDocumentError(
      `${vendor.file} has ${posts.length} POST paths (${posts.join(', ')}): choose one with --path`,
    );
  return posts[0] ?? '/';
}

/** One schema of the document, compiled with the rest of the document around it (so local $refs resolve). */
export interface SchemaCheck {
  (value: unknown): ErrorObject[];
}

export function schemaChecker(vendor: VendorDocument): (pointer: string) => SchemaCheck {
  const ajv = new Ajv2020({ strict: false, allErrors: true, logger: false, validateSchema: false });
  for (const [name, check] of Object.entries(FORMATS)) ajv.addFormat(name, { type: 'string', validate: check });
  // The whole document is the root schema: `#/components/schemas/X` resolves in it as in the document.
  ajv.addSchema({ ...vendor.document, $id: 'vendor:document' }, 'vendor:document');
  const cache = new Map<string, ValidateFunction>();
  return (pointer) => {
    let validate = cache.get(pointer);
    if (validate === undefined) {
      validate = ajv.compile({ $ref: `vendor:document#${encodeURI(pointer)}` });
      cache.set(pointer, validate);
    }
    const check = validate;
    return (value) => (check(value) ? [] : [...(check.errors ?? [])]);
  };
}
