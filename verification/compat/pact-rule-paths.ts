// Pact's matching rules and generators are keyed by path expressions (`$.invoices[*].cost`,
// `$['a.b']`, `$.items[0]`); the comparison walks concrete paths (['invoices', 0, 'cost']).
// This says which expression covers a concrete path, and which of several wins: the one with
// fewer wildcards, as Pact weighs them.

export type PathSegment = string | number;
type Token = { field: string } | { index: number } | { star: true };

const cache = new Map<string, Token[] | undefined>();

/** The tokens of `$…` (undefined when it is not a path we can read). */
export function parseRulePath(expression: string): Token[] | undefined {
  if (cache.has(expression)) return cache.get(expression);
  const tokens: Token[] = [];
  let rest = expression.startsWith('$') ? expression.slice(1) : undefined;
  while (rest !== undefined && rest !== '') {
    let m: RegExpMatchArray | null;
    if ((m = rest.match(/^\.\*/)) || (m = rest.match(/^\[\*\]/))) tokens.push({ star: true });
    else if ((m = rest.match(/^\[(\d+)\]/))) tokens.push({ index: Number(m[1]) });
    else if ((m = rest.match(/^\['((?:[^'\\]|\\.)*)'\]/))) tokens.push({ field: m[1].replace(/\\(.)/g, '$1') });
    else if ((m = rest.match(/^\.([^.[\]]+)/))) tokens.push({ field: m[1] });
    else {
      rest = undefined;
      break;
    }
    rest = rest.slice(m[0].length);
  }
  const parsed = rest === undefined ? undefined : tokens;
  cache.set(expression, parsed);
  return parsed;
}

/** How specifically `expression` names `path` (0: it does not; higher: fewer wildcards). */
export function pathWeight(expression: string, path: readonly PathSegment[]): number {
  const tokens = parseRulePath(expression);
  if (tokens === undefined || tokens.length !== path.length) return 0;
  let weight = 1;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    const segment = path[i];
    if ('star' in token) continue;
    if ('field' in token ? token.field !== segment : token.index !== segment) return 0;
    weight++;
  }
  return weight;
}

/** The entry of `byPath` (matching rules or generators of one category) that names `path` most specifically. */
export function entryFor<T>(byPath: Record<string, T> | undefined, path: readonly PathSegment[]): T | undefined {
  let best: T | undefined;
  let bestWeight = 0;
  for (const [expression, entry] of Object.entries(byPath ?? {})) {
    const weight = pathWeight(expression, path);
    if (weight > bestWeight) {
      best = entry;
      bestWeight = weight;
    }
  }
  return best;
}

/** A JSON pointer (RFC 6901) from segments. */
export const pointerOf = (segments: readonly PathSegment[]): string =>
  segments.map((segment) => `/${String(segment).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
