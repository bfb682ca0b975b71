// Whether a vendor's reply schema allows what the contract's forbids, structurally, for the
// common cases: a property the contract requires that the vendor's leaves optional, a type or
// an enum wider than the contract's. Objects and arrays are walked path by path; allOf is
// merged, anyOf/oneOf taken branch by branch. Pure: no I/O.
import { follow, isObject, pointerChild, type Located } from '../compat/openapi-refs';
import {
  asObjectSchema,
  branchesOf,
  enumValues,
  mergeAllOf,
  typeSet,
  typesWithin,
} from '../compat/openapi-schema-shape';

/** One place where the vendor's schema allows more than the contract's. */
export interface SchemaGap {
  /** A JSON path into the reply: `$.invoices[*].status`. */
  path: string;
  vendor: string;
  contract: string;
}

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
