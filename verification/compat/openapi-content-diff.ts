// The media types of a request body or a response: a type removed or added, each type's
// example, and its schema compared in the body's direction.
import type { Direction, OpenApiPolicy } from './openapi-compat-policy';
import { report, type FindingSink } from './openapi-finding';
import { isObject, pointerChild, type JsonObject, type Located } from './openapi-refs';

export type SchemaDiff = (base: Located, head: Located) => void;

const CONTENT_POLICY = {
  request: { removed: 'request-body-content-type-removed', added: 'request-body-content-type-added' },
  reply: { removed: 'response-content-type-removed', added: 'response-content-type-added' },
} as const satisfies Record<Direction, Record<'removed' | 'added', OpenApiPolicy>>;

export function diffContent(
  sink: FindingSink,
  b: Located,
  h: Located,
  direction: Direction,
  diffSchema: SchemaDiff,
): void {
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
        report(sink, {
          policy: 'example-changed',
          pointer: pointerChild(key in hMedia ? hAt : bAt, key),
          message: `${type} ${key} changed`,
        });
    }
    diffSchema(
      { node: bMedia.schema ?? {}, at: pointerChild(bAt, 'schema') },
      { node: hMedia.schema ?? {}, at: pointerChild(hAt, 'schema') },
    );
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
