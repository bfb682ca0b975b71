// Compares two OpenAPI documents (or two operations of them) and classifies every change for a
// buyer program: breaking when a program that worked against base can fail against head, safe
// otherwise. Operations are matched by method and path, a path's variables matched by position
// (so renaming {id} to {item_id} is not a path removed). Pure: no I/O.
import type { CompatFinding } from './compat-finding';
import { report, type FindingSink } from './openapi-finding';
import { diffOperation } from './openapi-operation-diff';
import { HTTP_METHODS, operationPointer, whereOf, type DocumentOperation } from './openapi-operations';
import { isObject, type JsonObject } from './openapi-refs';

/** A path with its variables' names left out: /cart/{} matches /cart/{id} and /cart/{item_id}. */
const pathShape = (path: string) => path.replace(/\{[^}]*\}/g, '{}');

function pathsOf(document: unknown, side: 'base' | 'head'): JsonObject {
  if (!isObject(document) || typeof document.openapi !== 'string')
    throw new TypeError(`${side} is not an OpenAPI document (it has no "openapi" field)`);
  return isObject(document.paths) ? document.paths : {};
}

const methodsOf = (item: unknown): string[] => HTTP_METHODS.filter((m) => isObject(item) && isObject(item[m]));

/** Every change from base to head, classified for a buyer program. */
export function compareOpenApiDocuments(base: unknown, head: unknown): CompatFinding[] {
  const basePaths = pathsOf(base, 'base');
  const headPaths = pathsOf(head, 'head');
  const headByShape = new Map(Object.keys(headPaths).map((p) => [pathShape(p), p]));
  const baseShapes = new Set(Object.keys(basePaths).map(pathShape));
  const findings: CompatFinding[] = [];
  for (const [basePath, baseItem] of Object.entries(basePaths)) {
    const headPath = headByShape.get(pathShape(basePath));
    for (const method of methodsOf(baseItem)) {
      const sink: FindingSink = { where: whereOf({ method, path: basePath }), findings };
      if (headPath === undefined) {
        report(sink, {
          policy: 'path-removed',
          pointer: operationPointer(basePath, method),
          base: sink.where,
          message: `${basePath} removed`,
        });
      } else if (!methodsOf(headPaths[headPath]).includes(method)) {
        report(sink, {
          policy: 'operation-removed',
          pointer: operationPointer(basePath, method),
          base: sink.where,
          message: `${sink.where} removed`,
        });
      } else {
        findings.push(...compareOperations(base, { method, path: basePath }, { method, path: headPath }, head));
      }
    }
  }
  for (const [headPath, headItem] of Object.entries(headPaths)) {
    const baseItem = baseShapes.has(pathShape(headPath))
      ? basePaths[Object.keys(basePaths).find((p) => pathShape(p) === pathShape(headPath))!]
      : undefined;
    for (const method of methodsOf(headItem)) {
      if (baseItem !== undefined && methodsOf(baseItem).includes(method)) continue;
      const sink: FindingSink = { where: whereOf({ method, path: headPath }), findings };
      const policy = baseItem === undefined ? 'path-added' : 'operation-added';
      report(sink, {
        policy,
        pointer: operationPointer(headPath, method),
        head: sink.where,
        message: `${sink.where} added`,
      });
    }
  }
  return withoutRepeats(findings);
}

/**
 * Two operations of one document (v3.1 and v3.2 of item inquiry), or of two documents when
 * headDocument is given: what a buyer program written for base meets when moved to head.
 * Findings are named by the head operation.
 */
export function compareOperations(
  document: unknown,
  baseOp: { method: string; path: string },
  headOp: { method: string; path: string },
  headDocument: unknown = document,
): CompatFinding[] {
  const baseOperation: DocumentOperation = { document, method: baseOp.method.toLowerCase(), path: baseOp.path };
  const headOperation: DocumentOperation = {
    document: headDocument,
    method: headOp.method.toLowerCase(),
    path: headOp.path,
  };
  for (const [side, o] of [
    ['base', baseOperation],
    ['head', headOperation],
  ] as const) {
    if (!methodsOf(pathsOf(o.document, side)[o.path]).some((m) => m === o.method))
      throw new RangeError(`${side} has no operation ${whereOf(o)}`);
  }
  const sink: FindingSink = { where: whereOf(headOperation), findings: [] };
  diffOperation(sink, baseOperation, headOperation);
  return withoutRepeats(sink.findings);
}

// A component reached twice in one operation (two fields of one type) is one change.
function withoutRepeats(findings: CompatFinding[]): CompatFinding[] {
  const seen = new Set<string>();
  return findings.filter((f) => {
    const key = `${f.where} ${f.pointer} ${f.policy}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
