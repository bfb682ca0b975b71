// Compares two operations for the buyer that calls them: security, parameters and the request
// body as what the buyer writes, responses (statuses, headers, media types, bodies) as what the
// buyer reads, and the wording around them. The two may come from different documents or paths
// (v3.1 against v3.2 of one operation).
import { diffContent, type SchemaDiff } from './openapi-content-diff';
import { report, type FindingSink } from './openapi-finding';
import { operationPointer, objectAt, type DocumentOperation } from './openapi-operations';
import { diffParameters } from './openapi-parameter-diff';
import { follow, isObject, pointerChild, type JsonObject } from './openapi-refs';
import { diffResponses, type OperationSide } from './openapi-response-diff';
import { diffSchemas, schemaComparison } from './openapi-schema-diff';

export function diffOperation(sink: FindingSink, base: DocumentOperation, head: DocumentOperation): void {
  const b = {
    document: base.document,
    at: operationPointer(base.path, base.method),
    op: objectAt(base.document, operationPointer(base.path, base.method)) ?? {},
  };
  const h = {
    document: head.document,
    at: operationPointer(head.path, head.method),
    op: objectAt(head.document, operationPointer(head.path, head.method)) ?? {},
  };
  const schemas = schemaComparison(base.document, head.document, sink);
  diffWording(sink, b, h);
  diffSecurity(sink, base, head, b, h);
  diffParameters(sink, base, head, (x, y) => diffSchemas(schemas, x, y, 'request'));
  diffRequestBody(sink, b, h, (x, y) => diffSchemas(schemas, x, y, 'request'));
  diffResponses(sink, b, h, (x, y, direction) => diffSchemas(schemas, x, y, direction));
}

function diffWording(sink: FindingSink, b: OperationSide, h: OperationSide): void {
  for (const key of ['summary', 'description']) {
    if (b.op[key] !== h.op[key])
      report(sink, {
        policy: 'wording-changed',
        pointer: pointerChild(key in h.op ? h.at : b.at, key),
        base: b.op[key],
        head: h.op[key],
        message: `${key} reworded`,
      });
  }
  if (JSON.stringify(b.op.tags) !== JSON.stringify(h.op.tags))
    report(sink, {
      policy: 'wording-changed',
      pointer: pointerChild(h.at, 'tags'),
      base: b.op.tags,
      head: h.op.tags,
      message: 'tags changed',
    });
  if (b.op.operationId !== h.op.operationId) {
    report(sink, {
      policy: 'operation-id-changed',
      pointer: pointerChild(h.at, 'operationId'),
      base: b.op.operationId,
      head: h.op.operationId,
      message: 'operationId changed: a generated client renames its method',
    });
  }
  if (h.op.deprecated === true && b.op.deprecated !== true)
    report(sink, {
      policy: 'deprecated',
      pointer: pointerChild(h.at, 'deprecated'),
      message: 'operation marked deprecated',
    });
}

/** Each alternative of the security requirement by one canonical text (scopes as a set), with where it stands. */
function securityAlternatives(o: DocumentOperation, side: OperationSide): Map<string, { alt: unknown; at: string }> {
  const own = side.op.security !== undefined;
  const requirement = own ? side.op.security : isObject(o.document) ? o.document.security : undefined;
  const alternatives = Array.isArray(requirement) ? requirement : [];
  return new Map(
    alternatives.map((alt: unknown, i) => {
      const entries = Object.entries(isObject(alt) ? alt : {}).map(
        ([name, scopes]) => [name, Array.isArray(scopes) ? [...(scopes as string[])].sort() : []] as const,
      );
      return [
        JSON.stringify(entries.sort(([x], [y]) => x.localeCompare(y))),
        { alt, at: own ? pointerChild(side.at, 'security', i) : pointerChild('', 'security', i) },
      ];
    }),
  );
}

function diffSecurity(
  sink: FindingSink,
  base: DocumentOperation,
  head: DocumentOperation,
  b: OperationSide,
  h: OperationSide,
): void {
  const bs = securityAlternatives(base, b);
  const hs = securityAlternatives(head, h);
  for (const [key, { alt, at }] of bs)
    if (!hs.has(key))
      report(sink, {
        policy: 'security-changed',
        pointer: at,
        base: alt,
        message: `the credentials ${key} no longer admit the buyer`,
      });
  for (const [key, { alt, at }] of hs)
    if (!bs.has(key))
      report(sink, {
        policy: 'security-alternative-added',
        pointer: at,
        head: alt,
        message: `the credentials ${key} now admit the buyer too`,
      });
}

function diffRequestBody(sink: FindingSink, b: OperationSide, h: OperationSide, diffSchema: SchemaDiff): void {
  const bb =
    b.op.requestBody === undefined
      ? undefined
      : follow(b.document, { node: b.op.requestBody, at: pointerChild(b.at, 'requestBody') });
  const hb =
    h.op.requestBody === undefined
      ? undefined
      : follow(h.document, { node: h.op.requestBody, at: pointerChild(h.at, 'requestBody') });
  if (bb === undefined && hb === undefined) return;
  if (hb === undefined)
    return report(sink, {
      policy: 'request-body-removed',
      pointer: bb!.at,
      message: 'request body removed: the buyer sends one that is no longer read',
    });
  const hn = hb.node as JsonObject;
  if (bb === undefined) {
    const required = hn.required === true;
    return report(sink, {
      policy: required ? 'request-body-newly-required' : 'request-body-made-optional',
      pointer: hb.at,
      message: `request body added (${required ? 'required' : 'optional'})`,
    });
  }
  const bn = bb.node as JsonObject;
  if (bn.required === true && hn.required !== true)
    report(sink, {
      policy: 'request-body-made-optional',
      pointer: pointerChild(hb.at, 'required'),
      message: 'request body no longer required',
    });
  if (bn.required !== true && hn.required === true)
    report(sink, {
      policy: 'request-body-newly-required',
      pointer: pointerChild(hb.at, 'required'),
      message: 'request body now required',
    });
  if (bn.description !== hn.description)
    report(sink, {
      policy: 'wording-changed',
      pointer: pointerChild(hb.at, 'description'),
      base: bn.description,
      head: hn.description,
      message: 'request body description reworded',
    });
  diffContent(sink, bb, hb, 'request', diffSchema);
}
