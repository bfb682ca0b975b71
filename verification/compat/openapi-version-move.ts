// What a buyer program meets when it moves from one version of the API to the next within one
// document (/json/federated/v3_1/… → /json/federated/v3_2/…): each operation offered by both
// compared with compareOperations, the ones only the new version offers listed as added, and
// the ones it drops as removed.
import type { CompatFinding } from './compat-finding';
import { compareOperations } from './openapi-compat';
import { report, type FindingSink } from './openapi-finding';
import { HTTP_METHODS, operationPointer, whereOf } from './openapi-operations';
import { isObject } from './openapi-refs';

function operationsUnder(document: unknown, prefix: string): Map<string, { method: string; path: string }> {
  const paths = isObject(document) && isObject(document.paths) ? document.paths : {};
  const out = new Map<string, { method: string; path: string }>();
  for (const [path, item] of Object.entries(paths)) {
    if (!path.startsWith(prefix) || !isObject(item)) continue;
    for (const method of HTTP_METHODS.filter((m) => isObject(item[m])))
      out.set(`${method} ${path.slice(prefix.length)}`, { method, path });
  }
  return out;
}

/** Every operation under `fromPrefix` against its twin under `toPrefix` (same method, same rest of the path). */
export function compareApiVersions(document: unknown, fromPrefix: string, toPrefix: string): CompatFinding[] {
  const from = operationsUnder(document, fromPrefix);
  const to = operationsUnder(document, toPrefix);
  const findings: CompatFinding[] = [];
  for (const [key, baseOp] of from) {
    const headOp = to.get(key);
    if (headOp !== undefined) findings.push(...compareOperations(document, baseOp, headOp));
    else {
      const sink: FindingSink = { where: whereOf(baseOp), findings };
      report(sink, {
        policy: 'operation-removed',
        pointer: operationPointer(baseOp.path, baseOp.method),
        base: sink.where,
        message: `${toPrefix} has no ${key}`,
      });
    }
  }
  for (const [key, headOp] of to) {
    if (from.has(key)) continue;
    const sink: FindingSink = { where: whereOf(headOp), findings };
    report(sink, {
      policy: 'operation-added',
      pointer: operationPointer(headOp.path, headOp.method),
      head: sink.where,
      message: `${fromPrefix} had no ${key}`,
    });
  }
  return findings;
}
