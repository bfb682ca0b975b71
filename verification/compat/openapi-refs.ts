// JSON pointers into an OpenAPI document and `$ref` resolution. Both documents are compared
// after their references are followed, so a schema moved into components (or inlined) with the
// same content is no change; each node keeps the pointer of where it really is in its document.

export type JsonObject = Record<string, unknown>;

/** A node of a document and the JSON pointer where it stands in that document. */
export interface Located {
  node: unknown;
  at: string;
}

export const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const escapeToken = (token: string | number) => String(token).replace(/~/g, '~0').replace(/\//g, '~1');

/** `at` extended by each token, escaped (`/json/x` → `~1json~1x`). */
export const pointerChild = (at: string, ...tokens: (string | number)[]) =>
  at + tokens.map((t) => `/${escapeToken(t)}`).join('');

/** The node at a local reference (`#/components/schemas/X`), or undefined. */
export function resolvePointer(document: unknown, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  const tokens = ref.slice(1).split('/').slice(1);
  let node: unknown = document;
  for (const raw of tokens) {
    const token = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node)) node = node[Number(token)];
    else if (isObject(node)) node = node[token];
    else return undefined;
  }
  return node;
}

// Beside a $ref (OpenAPI 3.1), these only describe: they override the target's, nothing more.
const DESCRIBING = new Set(['description', 'summary', 'title', 'example', 'examples', 'deprecated', '$comment']);

/**
 * The node a $ref chain ends at, with its pointer. A $ref with constraining siblings means both
 * (allOf of the target and the siblings); an external or dangling reference stays as it is.
 */
export function follow(document: unknown, located: Located): Located {
  let current = located;
  const seen = new Set<string>();
  for (;;) {
    const node = current.node;
    if (!isObject(node) || typeof node.$ref !== 'string') return current;
    const ref = node.$ref;
    const target = resolvePointer(document, ref);
    if (target === undefined || seen.has(ref)) return current;
    seen.add(ref);
    const { $ref: _ref, ...siblings } = node;
    const keys = Object.keys(siblings);
    if (keys.length === 0) {
      current = { node: target, at: ref.slice(1) };
    } else if (keys.every((k) => DESCRIBING.has(k))) {
      const resolved = follow(document, { node: target, at: ref.slice(1) });
      return { node: isObject(resolved.node) ? { ...resolved.node, ...siblings } : resolved.node, at: resolved.at };
    } else {
      return { node: { allOf: [{ $ref: ref }, siblings] }, at: current.at };
    }
  }
}
