import { parseRulePath, pathWeight, type PathSegment } from '../pact-rule-paths';

// Where a mutation can land in an interaction's body: its leaves, objects and arrays by concrete
// path, and the matching-rule or generator key that governs a path (the one Pact would pick).

export type Json = Record<string, unknown>;
export interface Site {
  path: PathSegment[];
  value: unknown;
}

const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Every value of `content` with its concrete path, the root first. */
export function sitesOf(content: unknown, path: PathSegment[] = []): Site[] {
  const here: Site[] = [{ path, value: content }];
  if (Array.isArray(content)) return [...here, ...content.flatMap((v, i) => sitesOf(v, [...path, i]))];
  if (isObject(content)) return [...here, ...Object.entries(content).flatMap(([k, v]) => sitesOf(v, [...path, k]))];
  return here;
}

export const isLeaf = (s: Site) => s.value === null || typeof s.value !== 'object';
export const isArraySite = (s: Site) => Array.isArray(s.value);
export const isObjectSite = (s: Site) => isObject(s.value);

/** `$.a[0].b` for a concrete path (bracketed where a key is not a plain name). */
export const expressionOf = (path: readonly PathSegment[]): string =>
  `$${path.map((s) => (typeof s === 'number' ? `[${s}]` : /^[A-Za-z_][\w-]*$/.test(s) ? `.${s}` : `['${s.replace(/'/g, "\\'")}']`)).join('')}`;

/** The key of `byPath` that names `path` most specifically (Pact's choice), if any. */
export function keyFor(byPath: Json | undefined, path: readonly PathSegment[]): string | undefined {
  let best: string | undefined;
  let bestWeight = 0;
  for (const key of Object.keys(byPath ?? {})) {
    const weight = pathWeight(key, path);
    if (weight > bestWeight) [best, bestWeight] = [key, weight];
  }
  return best;
}

/** Whether `expression` names `path` or something beneath it. */
export function reachesInto(expression: string, path: readonly PathSegment[]): boolean {
  const tokens = parseRulePath(expression);
  if (tokens === undefined || tokens.length < path.length) return false;
  return path.every((segment, i) => {
    const t = tokens[i];
    return 'star' in t || ('field' in t ? t.field === segment : t.index === segment);
  });
}

/** Drops the entries of `byPath` that name `path` or beneath it. */
export function dropUnder(byPath: Json | undefined, path: readonly PathSegment[]): void {
  for (const key of Object.keys(byPath ?? {})) if (reachesInto(key, path)) delete byPath![key];
}

/** The value at `path` of `root`, and a setter; undefined when a step is missing. */
export function parentOf(
  root: unknown,
  path: readonly PathSegment[],
): { parent: Json | unknown[]; key: PathSegment } | undefined {
  let node: unknown = root;
  for (const segment of path.slice(0, -1)) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<PathSegment, unknown>)[segment];
  }
  return node !== null && typeof node === 'object' ? { parent: node as Json, key: path[path.length - 1] } : undefined;
}
