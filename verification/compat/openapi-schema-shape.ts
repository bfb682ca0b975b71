// Reading one JSON Schema for comparison: its canonical text (references followed, annotations
// and the order of sets ignored), its type set, its bounds, allOf merged into one schema and
// anyOf/oneOf as a set of branches. Pure functions of a document and a node.
import { follow, isObject, pointerChild, type JsonObject, type Located } from './openapi-refs';

/** Keywords that only describe; a change to them is wording, never a change of values. */
export const ANNOTATIONS = new Set([
  'title',
  'description',
  'example',
  'examples',
  '$comment',
  'deprecated',
  'default',
  'readOnly',
  'writeOnly',
  'discriminator',
  'externalDocs',
  'xml',
  '$id',
  '$schema',
]);

// Arrays whose order means nothing.
const SETS = new Set(['enum', 'required', 'type', 'anyOf', 'oneOf', 'allOf']);

/**
 * Canonical text of a schema: equal texts accept the same values.
 * Recursion is cut at a reference already being expanded.
 */
export function canonical(document: unknown, node: unknown, expanding: ReadonlySet<string> = new Set()): string {
  if (Array.isArray(node)) return `[${node.map((n) => canonical(document, n, expanding)).join(',')}]`;
  if (!isObject(node)) return JSON.stringify(node);
  if (typeof node.$ref === 'string') {
    if (expanding.has(node.$ref)) return JSON.stringify({ $cycle: node.$ref });
    const target = follow(document, { node, at: '' }).node;
    if (target === node) return JSON.stringify({ $ref: node.$ref });
    return canonical(document, target, new Set([...expanding, node.$ref]));
  }
  const entries = Object.keys(node)
    .filter((k) => !ANNOTATIONS.has(k) && !k.startsWith('x-'))
    .sort()
    .map((k) => {
      const value = node[k];
      if (SETS.has(k) && Array.isArray(value))
        return `${JSON.stringify(k)}:[${value
          .map((v) => canonical(document, v, expanding))
          .sort()
          .join(',')}]`;
      if (k === 'properties' && isObject(value)) {
        const props = Object.keys(value)
          .sort()
          .map((p) => `${JSON.stringify(p)}:${canonical(document, value[p], expanding)}`);
        return `"properties":{${props.join(',')}}`;
      }
      return `${JSON.stringify(k)}:${canonical(document, value, expanding)}`;
    });
  return `{${entries.join(',')}}`;
}

/** JSON Schema's boolean schemas as objects: true accepts anything, false nothing. */
export const asObjectSchema = (node: unknown): JsonObject =>
  node === true ? {} : node === false ? { not: {} } : isObject(node) ? node : {};

/** The types a schema admits; undefined is any type. OpenAPI 3.0's nullable adds null. */
export function typeSet(schema: JsonObject): Set<string> | undefined {
  const type = schema.type;
  if (type === undefined) return undefined;
  const set = new Set(Array.isArray(type) ? (type as string[]) : [String(type)]);
  if (schema.nullable === true) set.add('null');
  return set;
}

/** Every value a admits, b admits (an integer is a number; undefined is every type). */
export function typesWithin(a: Set<string> | undefined, b: Set<string> | undefined): boolean {
  if (b === undefined) return true;
  if (a === undefined) return false;
  return [...a].every((t) => b.has(t) || (t === 'integer' && b.has('number')));
}

export interface Bound {
  value: number;
  exclusive: boolean;
}

/** The tighter of `minimum` and `exclusiveMinimum` (3.1 numeric form; 3.0's boolean form read too). */
export function lowerBound(schema: JsonObject): Bound | undefined {
  return tighter('lower', numberBound(schema, 'minimum', 'exclusiveMinimum'));
}

export function upperBound(schema: JsonObject): Bound | undefined {
  return tighter('upper', numberBound(schema, 'maximum', 'exclusiveMaximum'));
}

function numberBound(schema: JsonObject, inclusive: string, exclusive: string): Bound[] {
  const bounds: Bound[] = [];
  const plain = schema[inclusive];
  const strict = schema[exclusive];
  if (typeof plain === 'number') bounds.push({ value: plain, exclusive: strict === true });
  if (typeof strict === 'number') bounds.push({ value: strict, exclusive: true });
  return bounds;
}

function tighter(side: 'lower' | 'upper', bounds: Bound[]): Bound | undefined {
  return bounds.reduce<Bound | undefined>(
    (best, b) => (best === undefined || compareBounds(side, b, best) === 'narrower' ? b : best),
    undefined,
  );
}

/** Whether head's bound admits fewer values than base's (undefined: unbounded), more, or the same. */
export function compareBounds(
  side: 'lower' | 'upper',
  head: Bound | undefined,
  base: Bound | undefined,
): 'narrower' | 'wider' | 'same' {
  if (head === undefined && base === undefined) return 'same';
  if (head === undefined) return 'wider';
  if (base === undefined) return 'narrower';
  if (head.value === base.value)
    return head.exclusive === base.exclusive ? 'same' : head.exclusive ? 'narrower' : 'wider';
  return (side === 'lower') === head.value > base.value ? 'narrower' : 'wider';
}

/** Where each property of a merged allOf really stands in the document. */
const PROPERTY_ORIGINS = new WeakMap<object, Map<string, string>>();

export const propertyAt = (schema: JsonObject, at: string, name: string) =>
  PROPERTY_ORIGINS.get(schema)?.get(name) ?? pointerChild(at, 'properties', name);

/**
 * allOf merged into one schema: properties joined (a property in two branches is the allOf of
 * both), required joined, other keywords from the first branch that has them. So a schema split
 * into composed parts compares equal to the same schema written whole.
 */
export function mergeAllOf(document: unknown, located: Located): Located {
  const schema = asObjectSchema(located.node);
  if (!Array.isArray(schema.allOf)) return { node: schema, at: located.at };
  const { allOf, ...own } = schema;
  const merged: JsonObject = { ...own };
  const properties: JsonObject = isObject(own.properties) ? { ...own.properties } : {};
  const origins = new Map<string, string>(
    Object.keys(properties).map((p) => [p, pointerChild(located.at, 'properties', p)]),
  );
  const required = new Set<string>(Array.isArray(own.required) ? (own.required as string[]) : []);
  (allOf as unknown[]).forEach((branch, i) => {
    const part = mergeAllOf(document, follow(document, { node: branch, at: pointerChild(located.at, 'allOf', i) }));
    const partSchema = part.node as JsonObject;
    for (const [name, property] of Object.entries(isObject(partSchema.properties) ? partSchema.properties : {})) {
      if (name in properties) properties[name] = { allOf: [properties[name], property] };
      else {
        properties[name] = property;
        origins.set(name, propertyAt(partSchema, part.at, name));
      }
    }
    for (const name of Array.isArray(partSchema.required) ? (partSchema.required as string[]) : []) required.add(name);
    for (const [key, value] of Object.entries(partSchema))
      if (!(key in merged) && key !== 'properties' && key !== 'required') merged[key] = value;
  });
  if (Object.keys(properties).length > 0) merged.properties = properties;
  if (required.size > 0) merged.required = [...required];
  PROPERTY_ORIGINS.set(merged, origins);
  return { node: merged, at: located.at };
}

/** anyOf/oneOf branches (oneOf's exclusivity is not told apart: both are read as a set of alternatives). */
export function branchesOf(located: Located): Located[] | undefined {
  const schema = located.node as JsonObject;
  for (const key of ['anyOf', 'oneOf'] as const) {
    const list = schema[key];
    if (Array.isArray(list)) return list.map((node, i) => ({ node, at: pointerChild(located.at, key, i) }));
  }
  return undefined;
}

/** The values of an enum or a const, or undefined when the schema has neither. */
export function enumValues(schema: JsonObject): unknown[] | undefined {
  if (Array.isArray(schema.enum)) return schema.enum;
  if ('const' in schema) return [schema.const];
  return undefined;
}

/** A branch that is only a value list (TypeBox writes a union of literals as anyOf of consts). */
export function isValueBranch(document: unknown, node: unknown): boolean {
  const schema = asObjectSchema(follow(document, { node, at: '' }).node);
  return (
    enumValues(schema) !== undefined &&
    Object.keys(schema).every((k) => k === 'enum' || k === 'const' || k === 'type' || ANNOTATIONS.has(k))
  );
}
