// Compares two operations for the buyer that calls them: security, parameters and the request
// body as what the buyer writes, responses (statuses, headers, media types, bodies) as what the
// buyer reads, and the wording around them. The two may come from different documents or paths
// (v3.1 against v3.2 of one operation).
import type { Direction, OpenApiPolicy } from './openapi-compat-policy';
import { report, type FindingSink } from './openapi-finding';
import { follow, isObject, pointerChild, resolvePointer, type JsonObject, type Located } from './openapi-refs';
import { diffSchemas, schemaComparison } from './openapi-schema-diff';

/** One operation of a document, as the comparison reads it. */
export interface DocumentOperation {
  document: unknown;
  method: string;
  path: string;
}

const objectAt = (document: unknown, at: string): JsonObject | undefined => {
  const node = resolvePointer(document, `#${at}`);
  return isObject(node) ? node : undefined;
};

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export const operationPointer = (path: string, method: string) => pointerChild('', 'paths', path, method);

/** `METHOD /path`, as findings name an operation. */
export const whereOf = (o: { method: string; path: string }) => `${o.method.toUpperCase()} ${o.path}`;

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

interface Side {
  document: unknown;
  at: string;
  op: JsonObject;
}

type SchemaDiff = (base: Located, head: Located) => void;

function diffWording(sink: FindingSink, b: Side, h: Side): void {
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
    report(sink, { policy: 'wording-changed', pointer: pointerChild(h.at, 'tags'), base: b.op.tags, head: h.op.tags, message: 'tags changed' });
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
    report(sink, { policy: 'deprecated', pointer: pointerChild(h.at, 'deprecated'), message: 'operation marked deprecated' });
}

/** Each alternative of the security requirement, in one canonical text (scopes as a set). */
function securityAlternatives(o: DocumentOperation, op: JsonObject): Map<string, unknown> {
  const requirement = op.security ?? (isObject(o.document) ? o.document.security : undefined) ?? [];
  const alternatives = Array.isArray(requirement) ? requirement : [];
  return new Map(
    alternatives.map((alt: unknown) => {
      const entries = Object.entries(isObject(alt) ? alt : {}).map(
        ([name, scopes]) => [name, Array.isArray(scopes) ? [...(scopes as string[])].sort() : []] as const,
      );
      return [JSON.stringify(entries.sort(([x], [y]) => x.localeCompare(y))), alt];
    }),
  );
}

function diffSecurity(sink: FindingSink, base: DocumentOperation, head: DocumentOperation, b: Side, h: Side): void {
  const bs = securityAlternatives(base, b.op);
  const hs = securityAlternatives(head, h.op);
  const at = pointerChild(h.at, 'security');
  for (const [key, alt] of bs)
    if (!hs.has(key)) report(sink, { policy: 'security-changed', pointer: at, base: alt, message: `the credentials ${key} no longer admit the buyer` });
  for (const [key, alt] of hs)
    if (!bs.has(key)) report(sink, { policy: 'security-alternative-added', pointer: at, head: alt, message: `the credentials ${key} now admit the buyer too` });
}

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
      const key = where === 'path' ? `path:#${variables.indexOf(name)}` : `${where}:${where === 'header' ? name.toLowerCase() : name}`;
      out.set(key, p);
    });
  }
  return out;
}

function diffParameters(sink: FindingSink, base: DocumentOperation, head: DocumentOperation, diffSchema: SchemaDiff): void {
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
      report(sink, { policy: 'example-changed', pointer: pointerChild(h.at, 'example'), message: 'parameter example changed' });
    if (hn.deprecated === true && bn.deprecated !== true)
      report(sink, { policy: 'deprecated', pointer: pointerChild(h.at, 'deprecated'), message: `parameter ${key} marked deprecated` });
    diffSchema({ node: bn.schema ?? {}, at: pointerChild(b.at, 'schema') }, { node: hn.schema ?? {}, at: pointerChild(h.at, 'schema') });
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

function diffRequestBody(sink: FindingSink, b: Side, h: Side, diffSchema: SchemaDiff): void {
  const bb = b.op.requestBody === undefined ? undefined : follow(b.document, { node: b.op.requestBody, at: pointerChild(b.at, 'requestBody') });
  const hb = h.op.requestBody === undefined ? undefined : follow(h.document, { node: h.op.requestBody, at: pointerChild(h.at, 'requestBody') });
  if (bb === undefined && hb === undefined) return;
  if (hb === undefined)
    return report(sink, { policy: 'request-body-removed', pointer: bb!.at, message: 'request body removed: the buyer sends one that is no longer read' });
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
    report(sink, { policy: 'request-body-made-optional', pointer: pointerChild(hb.at, 'required'), message: 'request body no longer required' });
  if (bn.required !== true && hn.required === true)
    report(sink, { policy: 'request-body-newly-required', pointer: pointerChild(hb.at, 'required'), message: 'request body now required' });
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

const CONTENT_POLICY = {
  request: { removed: 'request-body-content-type-removed', added: 'request-body-content-type-added' },
  reply: { removed: 'response-content-type-removed', added: 'response-content-type-added' },
} as const satisfies Record<Direction, Record<'removed' | 'added', OpenApiPolicy>>;

function diffContent(sink: FindingSink, b: Located, h: Located, direction: Direction, diffSchema: SchemaDiff): void {
  const bc = (b.node as JsonObject).content;
  const hc = (h.node as JsonObject).content;
  const bm = isObject(bc) ? bc : {};
  const hm = isObject(hc) ? hc : {};
  for (const type of Object.keys(bm)) {
    const bAt = pointerChild(b.at, 'content', type);
    if (!(type in hm)) {
      report(sink, {
        policy: CONTENT_POLICY[direction].removed,
        pointer: bAt,
        base: type,
        message: `${type} no longer ${direction === 'request' ? 'accepted' : 'answered'}`,
      });
      continue;
    }
    const hAt = pointerChild(h.at, 'content', type);
    const bMedia = isObject(bm[type]) ? bm[type] : {};
    const hMedia = isObject(hm[type]) ? hm[type] : {};
    for (const key of ['example', 'examples']) {
      if (JSON.stringify(bMedia[key]) !== JSON.stringify(hMedia[key]))
        report(sink, { policy: 'example-changed', pointer: pointerChild(key in hMedia ? hAt : bAt, key), message: `${type} ${key} changed` });
    }
    diffSchema({ node: bMedia.schema ?? {}, at: pointerChild(bAt, 'schema') }, { node: hMedia.schema ?? {}, at: pointerChild(hAt, 'schema') });
  }
  for (const type of Object.keys(hm)) {
    if (!(type in bm))
      report(sink, {
        policy: CONTENT_POLICY[direction].added,
        pointer: pointerChild(h.at, 'content', type),
        head: type,
        message: `${type} now ${direction === 'request' ? 'accepted' : 'answered'}`,
      });
  }
}

function diffResponses(sink: FindingSink, b: Side, h: Side, diffSchema: (x: Located, y: Located, direction: Direction) => void): void {
  const br = isObject(b.op.responses) ? b.op.responses : {};
  const hr = isObject(h.op.responses) ? h.op.responses : {};
  for (const status of Object.keys(br)) {
    const bAt = pointerChild(b.at, 'responses', status);
    if (!(status in hr)) {
      report(sink, {
        policy: 'response-status-removed',
        pointer: bAt,
        base: status,
        message: `status ${status} no longer answered: a buyer that handles it never sees it, and meets another`,
      });
      continue;
    }
    const bResponse = follow(b.document, { node: br[status], at: bAt });
    const hResponse = follow(h.document, { node: hr[status], at: pointerChild(h.at, 'responses', status) });
    const bn = bResponse.node as JsonObject;
    const hn = hResponse.node as JsonObject;
    if (bn.description !== hn.description) {
      report(sink, {
        policy: 'wording-changed',
        pointer: pointerChild(hResponse.at, 'description'),
        base: bn.description,
        head: hn.description,
        message: `status ${status} description reworded`,
      });
    }
    diffHeaders(sink, b.document, h.document, bResponse, hResponse, (x, y) => diffSchema(x, y, 'reply'));
    diffContent(sink, bResponse, hResponse, 'reply', (x, y) => diffSchema(x, y, 'reply'));
  }
  for (const status of Object.keys(hr)) {
    if (!(status in br))
      report(sink, {
        policy: 'response-status-added',
        pointer: pointerChild(h.at, 'responses', status),
        head: status,
        message: `status ${status} now documented`,
      });
  }
}

function diffHeaders(sink: FindingSink, baseDoc: unknown, headDoc: unknown, b: Located, h: Located, diffSchema: SchemaDiff): void {
  const byName = (l: Located) => {
    const headers = (l.node as JsonObject).headers;
    return new Map(
      Object.entries(isObject(headers) ? headers : {}).map(([name, node]) => [name.toLowerCase(), { name, node, at: pointerChild(l.at, 'headers', name) }]),
    );
  };
  const bh = byName(b);
  const hh = byName(h);
  for (const [key, bx] of bh) {
    const hx = hh.get(key);
    if (hx === undefined) {
      report(sink, { policy: 'reply-header-removed', pointer: bx.at, base: bx.name, message: `reply header ${bx.name} no longer sent` });
      continue;
    }
    const bHeader = follow(baseDoc, bx);
    const hHeader = follow(headDoc, hx);
    const bn = bHeader.node as JsonObject;
    const hn = hHeader.node as JsonObject;
    if (bn.description !== hn.description)
      report(sink, {
        policy: 'wording-changed',
        pointer: pointerChild(hHeader.at, 'description'),
        base: bn.description,
        head: hn.description,
        message: `header ${hx.name} description reworded`,
      });
    diffSchema({ node: bn.schema ?? {}, at: pointerChild(bHeader.at, 'schema') }, { node: hn.schema ?? {}, at: pointerChild(hHeader.at, 'schema') });
  }
  for (const [key, hx] of hh)
    if (!bh.has(key)) report(sink, { policy: 'reply-header-added', pointer: hx.at, head: hx.name, message: `reply header ${hx.name} now sent` });
}
