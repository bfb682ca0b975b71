// Parameters (path, query, header, cookie) are what the buyer writes: one removed or newly
// required breaks, one added optional or made optional is safe, each schema compared as a request.
import type { OpenApiPolicy } from './openapi-compat-policy';
import type { SchemaDiff } from './openapi-content-diff';
import { report, type FindingSink } from './openapi-finding';
import { operationPointer, objectAt, type DocumentOperation } from './openapi-operations';
import { follow, isObject, pointerChild, type JsonObject, type Located } from './openapi-refs';

/** The operation's parameters with the path item's, each by a key that survives renaming a path variable. */
function parametersOf(o: DocumentOperation): Map<string, Located> {
  const pathAt = pointerChild('', 'paths', o.path);
  const opAt = operationPointer(o.path, o.method);
  const variables = [...o.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
  const out = new Map<string, Located>();
  for (const at of [pathAt, opAt]) {
    const list = objectAt(o.document, at)?.parameters;
    (Array.isArray(list) ? list : []).forEach((raw, i) => {
      const p = follow(o.document, { node: raw, at: pointerChild(at, 'parameters', i) });
      if (!isObject(p.node)) return;
      const name = String(p.node.name);
      const where = String(p.node.in);
      // A path variable is the n-th segment variable whatever it is called; a header's name has no case.
      const key =
        where === 'path'
          ? `path:#${variables.indexOf(name)}`
          : `${where}:${where === 'header' ? name.toLowerCase() : name}`;
      out.set(key, p);
    });
  }
  return out;
}

export function diffParameters(
  sink: FindingSink,
  base: DocumentOperation,
  head: DocumentOperation,
  diffSchema: SchemaDiff,
): void {
  const bp = parametersOf(base);
  const hp = parametersOf(head);
  for (const [key, b] of bp) {
    const bn = b.node as JsonObject;
    const h = hp.get(key);
    if (h === undefined) {
      report(sink, {
        policy: 'request-parameter-removed',
        pointer: b.at,
        base: `${String(bn.in)} ${String(bn.name)}`,
        message: `parameter ${key} removed: a buyer that sends it is refused or ignored`,
      });
      continue;
    }
    const hn = h.node as JsonObject;
    const wasRequired = bn.required === true;
    const isRequired = hn.required === true;
    if (wasRequired && !isRequired)
      report(sink, {
        policy: 'request-parameter-made-optional',
        pointer: pointerChild(h.at, 'required'),
        head: String(hn.name),
        message: `parameter ${key} no longer required`,
      });
    if (!wasRequired && isRequired)
      report(sink, {
        policy: 'request-parameter-newly-required',
        pointer: pointerChild(h.at, 'required'),
        head: String(hn.name),
        message: `parameter ${key} now required`,
      });
    if (bn.description !== hn.description)
      report(sink, {
        policy: 'wording-changed',
        pointer: pointerChild(h.at, 'description'),
        base: bn.description,
        head: hn.description,
        message: 'parameter description reworded',
      });
    if (JSON.stringify(bn.example) !== JSON.stringify(hn.example))
      report(sink, {
        policy: 'example-changed',
        pointer: pointerChild(h.at, 'example'),
        message: 'parameter example changed',
      });
    if (hn.deprecated === true && bn.deprecated !== true)
      report(sink, {
        policy: 'deprecated',
        pointer: pointerChild(h.at, 'deprecated'),
        message: `parameter ${key} marked deprecated`,
      });
    diffSchema(
      { node: bn.schema ?? {}, at: pointerChild(b.at, 'schema') },
      { node: hn.schema ?? {}, at: pointerChild(h.at, 'schema') },
    );
  }
  for (const [key, h] of hp) {
    if (bp.has(key)) continue;
    const hn = h.node as JsonObject;
    const policy: OpenApiPolicy = hn.required === true ? 'request-parameter-newly-required' : 'request-parameter-added';
    report(sink, {
      policy,
      pointer: h.at,
      head: `${String(hn.in)} ${String(hn.name)}`,
      message: `parameter ${key} added${hn.required === true ? ' (required)' : ' (optional)'}`,
    });
  }
}
