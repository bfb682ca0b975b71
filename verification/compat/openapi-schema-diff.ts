// Compares two JSON Schemas read in one direction. A request schema is what the buyer writes:
// head must accept all that base accepted, so narrowing breaks. A reply schema is what the
// buyer reads: head may only send what base could, so widening breaks (except unknown fields:
// buyers are tolerant readers). References are followed on both sides first; a recursive schema
// stops where the same pair of nodes is already being compared.
import type { Direction } from './openapi-compat-policy';
import { report } from './openapi-finding';
import { follow, isObject, pointerChild, type JsonObject, type Located } from './openapi-refs';
import { diffObject } from './openapi-object-diff';
import { at, placeOf, type SchemaComparison } from './openapi-schema-comparison';
import {
  ANNOTATIONS,
  asObjectSchema,
  branchesOf,
  canonical,
  enumValues,
  isValueBranch,
  mergeAllOf,
  typeSet,
} from './openapi-schema-shape';
import { diffUnion } from './openapi-union-diff';
import { diffValueRules, markFolded } from './openapi-value-rules';

export { schemaComparison, type SchemaComparison } from './openapi-schema-comparison';

const idOf = (c: SchemaComparison, node: unknown) => {
  if (!isObject(node)) return `=${JSON.stringify(node)}`;
  let id = c.ids.get(node);
  if (id === undefined) c.ids.set(node, (id = c.ids.size + 1));
  return String(id);
};

export function diffSchemas(c: SchemaComparison, base: Located, head: Located, direction: Direction): void {
  const b = follow(c.base, base);
  const h = follow(c.head, head);
  const pair = `${idOf(c, b.node)}:${idOf(c, h.node)}`;
  if (c.comparing.has(pair)) return;
  c.comparing.add(pair);
  try {
    diffResolved(c, mergeAllOf(c.base, b), mergeAllOf(c.head, h), direction);
  } finally {
    c.comparing.delete(pair);
  }
}

function diffResolved(c: SchemaComparison, b: Located, h: Located, direction: Direction): void {
  const baseUnion = branchesOf(b);
  const headUnion = branchesOf(h);
  if (baseUnion === undefined && headUnion === undefined) return diffKeywords(c, b, h, direction);
  // One side a union, the other not: the plain side is a union of one branch (made nullable, say).
  const [bRest, bBranches] = baseUnion === undefined ? liftToBranch(b) : [withoutUnion(b), baseUnion];
  const [hRest, hBranches] = headUnion === undefined ? liftToBranch(h) : [withoutUnion(h), headUnion];
  const onlyValues = [
    ...bBranches.map((x) => [c.base, x] as const),
    ...hBranches.map((x) => [c.head, x] as const),
  ].every(([doc, x]) => isValueBranch(doc, x.node));
  if (onlyValues) {
    // A union of literals is an enum: compared as one, so a value added is an enum widened.
    const bEnum = asEnum(c.base, bRest, bBranches, valuesAt(b, baseUnion));
    return diffKeywords(c, bEnum, asEnum(c.head, hRest, hBranches, valuesAt(h, headUnion)), direction);
  }
  diffKeywords(c, bRest, hRest, direction);
  diffUnion(c, bBranches, hBranches, direction, (x, y) => diffSchemas(c, x, y, direction));
}

const withoutUnion = (l: Located): Located => {
  const { anyOf: _a, oneOf: _o, ...rest } = l.node as JsonObject;
  return { node: rest, at: l.at };
};

// The whole schema becomes the one branch (its wording with it, to meet its twin's).
const liftToBranch = (l: Located): [Located, Located[]] => [{ node: {}, at: l.at }, [l]];

/** Where a value list stands: the anyOf/oneOf, or the enum/const of a plain schema. */
function valuesAt(l: Located, branches: Located[] | undefined): string {
  const schema = l.node as JsonObject;
  if (branches !== undefined) return pointerChild(l.at, Array.isArray(schema.anyOf) ? 'anyOf' : 'oneOf');
  return pointerChild(l.at, 'enum' in schema ? 'enum' : 'const');
}

function asEnum(document: unknown, rest: Located, branches: Located[], at: string): Located {
  const values: unknown[] = [];
  const types = new Set<string>();
  let typed = true;
  for (const branch of branches) {
    const schema = asObjectSchema(follow(document, branch).node);
    values.push(...(enumValues(schema) ?? []));
    const set = typeSet(schema);
    if (set === undefined) typed = false;
    else set.forEach((t) => types.add(t));
  }
  const node: JsonObject = { ...(rest.node as JsonObject), enum: values };
  if (typed && types.size > 0) node.type = [...types].sort();
  markFolded(node, at);
  return { node, at: rest.at };
}

// Keywords read below; any other that differs is a change no rule names (schema-changed).
const READ = new Set([
  'type',
  'nullable',
  'enum',
  'const',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
  'multipleOf',
  'uniqueItems',
  'pattern',
  'format',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'anyOf',
  'oneOf',
  'allOf',
]);

function diffKeywords(c: SchemaComparison, b: Located, h: Located, direction: Direction): void {
  const bs = b.node as JsonObject;
  const hs = h.node as JsonObject;
  const diffChild = (x: Located, y: Located) => diffSchemas(c, x, y, direction);
  diffValueRules(c, b, h, direction);
  if (['properties', 'required', 'additionalProperties'].some((k) => k in bs || k in hs))
    diffObject(c, b, h, direction, diffChild);
  if ('items' in bs || 'items' in hs)
    diffChild({ node: bs.items ?? {}, at: at(b, 'items') }, { node: hs.items ?? {}, at: at(h, 'items') });
  for (const key of new Set([...Object.keys(bs), ...Object.keys(hs)])) {
    if (READ.has(key) || ANNOTATIONS.has(key) || key.startsWith('x-')) continue;
    if (canonical(c.base, bs[key]) !== canonical(c.head, hs[key])) {
      report(c, {
        policy: 'schema-changed',
        pointer: placeOf(b, h, key),
        base: bs[key],
        head: hs[key],
        message: `\`${key}\` changed: no rule reads it, so it is taken as breaking`,
      });
    }
  }
}
