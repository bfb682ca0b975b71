// The properties of a pact's example reply that a vendor's reply schema does not declare. The
// check reads a property a document leaves out as one its seller does not send; where the
// pact's reply has it, Pact fails the interaction. Pure: no I/O.
import { follow, isObject, pointerChild, type Located } from '../compat/openapi-refs';
import { asObjectSchema, branchesOf, mergeAllOf } from '../compat/openapi-schema-shape';

const MAX_DEPTH = 32;

/** Each branch of a union (or the schema itself), allOf merged. */
function alternatives(document: unknown, located: Located, depth = 0): Located[] {
  const merged = mergeAllOf(document, follow(document, located));
  const branches = branchesOf(merged);
  if (branches === undefined || depth > MAX_DEPTH) return [merged];
  return branches.flatMap((b) => alternatives(document, b, depth + 1));
}

/** JSON paths (`$.items[*].original_part`) of properties `value` has and `schema` declares nowhere. */
export function undeclaredProperties(
  document: unknown,
  schema: Located,
  value: unknown,
  path = '$',
  depth = 0,
): string[] {
  if (depth > MAX_DEPTH) return [];
  const found = new Set<string>();
  if (Array.isArray(value)) {
    const items = alternatives(document, schema)
      .map((a) => asObjectSchema(a.node).items)
      .find((items) => isObject(items));
    if (items === undefined) return [];
    const at = { node: items, at: pointerChild(alternatives(document, schema)[0].at, 'items') };
    for (const item of value)
      for (const p of undeclaredProperties(document, at, item, `${path}[*]`, depth + 1)) found.add(p);
    return [...found];
  }
  if (!isObject(value)) return [];
  const options = alternatives(document, schema);
  for (const [name, child] of Object.entries(value)) {
    const declaring = options.find(
      (o) =>
        isObject(asObjectSchema(o.node).properties) && Object.hasOwn(asObjectSchema(o.node).properties as object, name),
    );
    if (declaring === undefined) {
      // A schema that says nothing of properties (no `properties` anywhere) is not a declaration to read.
      if (options.some((o) => isObject(asObjectSchema(o.node).properties))) found.add(`${path}.${name}`);
      continue;
    }
    const properties = asObjectSchema(declaring.node).properties as Record<string, unknown>;
    const at = { node: properties[name], at: pointerChild(declaring.at, 'properties', name) };
    for (const p of undeclaredProperties(document, at, child, `${path}.${name}`, depth + 1)) found.add(p);
  }
  return [...found];
}
