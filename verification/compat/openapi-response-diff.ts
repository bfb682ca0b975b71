// Responses are what the buyer reads: a status or a header removed breaks, one added is safe,
// and every body and header schema is compared as a reply.
import type { Direction } from './openapi-compat-policy';
import { diffContent, type SchemaDiff } from './openapi-content-diff';
import { report, type FindingSink } from './openapi-finding';
import { follow, isObject, pointerChild, type JsonObject, type Located } from './openapi-refs';

/** One side's operation object, its document and its pointer. */
export interface OperationSide {
  document: unknown;
  at: string;
  op: JsonObject;
}

export function diffResponses(
  sink: FindingSink,
  b: OperationSide,
  h: OperationSide,
  diffSchema: (x: Located, y: Located, direction: Direction) => void,
): void {
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

function diffHeaders(
  sink: FindingSink,
  baseDoc: unknown,
  headDoc: unknown,
  b: Located,
  h: Located,
  diffSchema: SchemaDiff,
): void {
  const byName = (l: Located) => {
    const headers = (l.node as JsonObject).headers;
    return new Map(
      Object.entries(isObject(headers) ? headers : {}).map(([name, node]) => [
        name.toLowerCase(),
        { name, node, at: pointerChild(l.at, 'headers', name) },
      ]),
    );
  };
  const bh = byName(b);
  const hh = byName(h);
  for (const [key, bx] of bh) {
    const hx = hh.get(key);
    if (hx === undefined) {
      report(sink, {
        policy: 'reply-header-removed',
        pointer: bx.at,
        base: bx.name,
        message: `reply header ${bx.name} no longer sent`,
      });
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
    diffSchema(
      { node: bn.schema ?? {}, at: pointerChild(bHeader.at, 'schema') },
      { node: hn.schema ?? {}, at: pointerChild(hHeader.at, 'schema') },
    );
  }
  for (const [key, hx] of hh)
    if (!bh.has(key))
      report(sink, {
        policy: 'reply-header-added',
        pointer: hx.at,
        head: hx.name,
        message: `reply header ${hx.name} now sent`,
      });
}
