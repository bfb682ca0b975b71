// Whether a vendor's reply schema allows what the contract's forbids: a property the contract
// requires that the vendor's leaves optional, a type, an enum (null included: nullable is a
// type union here) or a value constraint wider than the contract's, other properties where the
// contract allows none, array items left open. Objects and arrays are walked path by path;
// allOf is merged, anyOf/oneOf taken branch by branch. A property the vendor's schema does not
// declare is taken as one the seller does not send. Pure: no I/O.
import { follow, isObject, pointerChild, type Located } from '../compat/openapi-refs';
import {
  asObjectSchema,
  branchesOf,
  enumValues,
  mergeAllOf,
  typeSet,
  typesWithin,
} from '../compat/openapi-schema-shape';
import { constraintGaps, type SchemaGap } from './value-constraints';

export type { SchemaGap };

export interface Side {
  document: unknown;
  at: Located;
}

const MAX_DEPTH = 32;

const read = (document: unknown, located: Located): Located => mergeAllOf(document, follow(document, located));

/** The values a union of value-only branches (TypeBox's anyOf of consts) lists, or undefined. */
function unionValues(document: unknown, located: Located): unknown[] | undefined {
  const branches = branchesOf(located);
  if (branches === undefined) return undefined;
  const values: unknown[] = [];
  for (const branch of branches) {
    const schema = asObjectSchema(read(document, branch).node);
    const own = enumValues(schema);
    if (own === undefined || branchesOf({ node: schema, at: '' }) !== undefined) return undefined;
    values.push(...own);
  }
  return values;
}

const valuesOf = (document: unknown, located: Located): unknown[] | undefined =>
  enumValues(asObjectSchema(located.node)) ?? unionValues(document, located);

const typeText = (types: Set<string> | undefined) => (types === undefined ? 'any type' : [...types].sort().join(' | '));
const valuesText = (values: unknown[] | undefined) =>
  values === undefined ? 'any value' : `one of ${values.map((v) => JSON.stringify(v)).join(', ')}`;

/** The gaps between a vendor's schema and the contract's at `path`. */
export function schemaGaps(vendor: Side, contract: Side, path = '$', depth = 0): SchemaGap[] {
  if (depth > MAX_DEPTH) return [];
  const v = read(vendor.document, vendor.at);
  const c = read(contract.document, contract.at);
  const cValues = valuesOf(contract.document, c);
  const vValues = valuesOf(vendor.document, v);
  // A union on the contract's side: the vendor's is within it when within one of its branches.
  const cBranches = cValues === undefined ? branchesOf(c) : undefined;
  if (cBranches !== undefined) {
    let best: SchemaGap[] | undefined;
    for (const branch of cBranches) {
      const gaps = schemaGaps(
        { document: vendor.document, at: v },
        { document: contract.document, at: branch },
        path,
        depth + 1,
      );
      if (best === undefined || gaps.length < best.length) best = gaps;
      if (gaps.length === 0) break;
    }
    return best ?? [];
  }
  // A union on the vendor's side: every branch must be within the contract's.
  const vBranches = vValues === undefined ? branchesOf(v) : undefined;
  if (vBranches !== undefined)
    return vBranches.flatMap((branch) =>
      schemaGaps({ document: vendor.document, at: branch }, { document: contract.document, at: c }, path, depth + 1),
    );
  const vs = asObjectSchema(v.node);
  const cs = asObjectSchema(c.node);
  const gaps: SchemaGap[] = [];
  const cTypes = typeSet(cs);
  const vTypes = typeSet(vs);
  if (cTypes !== undefined && !typesWithin(vTypes, cTypes) && vValues === undefined)
    gaps.push({ path, vendor: typeText(vTypes), contract: typeText(cTypes) });
  if (cValues !== undefined) {
    const outside = vValues === undefined ? undefined : vValues.filter((x) => !cValues.some((y) => same(x, y)));
    if (outside === undefined || outside.length > 0)
      gaps.push({
        path,
        vendor:
          outside === undefined ? valuesText(undefined) : `also ${outside.map((x) => JSON.stringify(x)).join(', ')}`,
        contract: valuesText(cValues),
      });
  }
  if (vValues === undefined) gaps.push(...constraintGaps(vs, cs, vTypes, path));
  const vRequired = new Set(Array.isArray(vs.required) ? (vs.required as string[]) : []);
  const vProperties = isObject(vs.properties) ? vs.properties : {};
  const cProperties = isObject(cs.properties) ? cs.properties : {};
  for (const name of Array.isArray(cs.required) ? (cs.required as string[]) : [])
    if (!vRequired.has(name)) gaps.push({ path: `${path}.${name}`, vendor: 'optional', contract: 'required' });
  for (const name of Object.keys(cProperties)) {
    if (!Object.hasOwn(vProperties, name)) continue;
    gaps.push(
      ...schemaGaps(
        { document: vendor.document, at: { node: vProperties[name], at: pointerChild(v.at, 'properties', name) } },
        { document: contract.document, at: { node: cProperties[name], at: pointerChild(c.at, 'properties', name) } },
        `${path}.${name}`,
        depth + 1,
      ),
    );
  }
  gaps.push(...extraPropertyGaps(vendor.document, v, contract.document, c, vProperties, cProperties, path, depth));
  const arrays = vTypes === undefined || vTypes.has('array');
  if (isObject(cs.items) && vs.items === undefined && arrays && vValues === undefined)
    gaps.push({ path: `${path}[*]`, vendor: 'any item', contract: typeText(typeSet(cs.items)) });
  if (isObject(cs.items) && (isObject(vs.items) || vs.items === true))
    gaps.push(
      ...schemaGaps(
        { document: vendor.document, at: { node: vs.items, at: pointerChild(v.at, 'items') } },
        { document: contract.document, at: { node: cs.items, at: pointerChild(c.at, 'items') } },
        `${path}[*]`,
        depth + 1,
      ),
    );
  return gaps;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Where the contract allows no other property (or only some): the vendor's other properties, and its rule for them. */
function extraPropertyGaps(
  vDocument: unknown,
  v: Located,
  cDocument: unknown,
  c: Located,
  vProperties: Record<string, unknown>,
  cProperties: Record<string, unknown>,
  path: string,
  depth: number,
): SchemaGap[] {
  const cs = asObjectSchema(c.node);
  const vs = asObjectSchema(v.node);
  const cExtra = cs.additionalProperties;
  if (cExtra === undefined || cExtra === true) return [];
  const gaps: SchemaGap[] = [];
  const extraSide = (node: unknown, at: string) => ({ node, at: pointerChild(at, 'additionalProperties') });
  for (const name of Object.keys(vProperties).filter((n) => !Object.hasOwn(cProperties, n))) {
    if (cExtra === false) gaps.push({ path: `${path}.${name}`, vendor: 'a property', contract: 'no such property' });
    else
      gaps.push(
        ...schemaGaps(
          { document: vDocument, at: { node: vProperties[name], at: pointerChild(v.at, 'properties', name) } },
          { document: cDocument, at: extraSide(cExtra, c.at) },
          `${path}.${name}`,
          depth + 1,
        ),
      );
  }
  const vExtra = vs.additionalProperties;
  if (vExtra === false) return gaps;
  if (cExtra === false || vExtra === undefined || vExtra === true)
    gaps.push({
      path: `${path}.*`,
      vendor: 'other properties allowed',
      contract:
        cExtra === false
          ? 'no other property'
          : `other properties only as ${typeText(typeSet(asObjectSchema(cExtra)))}`,
    });
  else
    gaps.push(
      ...schemaGaps(
        { document: vDocument, at: extraSide(vExtra, v.at) },
        { document: cDocument, at: extraSide(cExtra, c.at) },
        `${path}.*`,
        depth + 1,
      ),
    );
  return gaps;
}
