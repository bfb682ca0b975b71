// Where a repeated order differs from the first one sent under its purchase order number:
// the JSON pointer of the first difference, walking both parsed bodies with object keys
// sorted, so key order, whitespace and number spelling (2 vs 2.0) do not count.

const escape = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The first path at which the two parsed JSON values differ ('' for the whole value), or undefined when they are equal.
 */
export function firstDifference(first: unknown, second: unknown, path = ''): string | undefined {
  if (Array.isArray(first) && Array.isArray(second)) {
    const shorter = Math.min(first.length, second.length);
    for (let i = 0; i < shorter; i++) {
      const found = firstDifference(first[i], second[i], `${path}/${i}`);
      if (found !== undefined) return found;
    }
    return first.length === second.length ? undefined : `${path}/${shorter}`;
  }
  if (isObject(first) && isObject(second)) {
    const keys = [...new Set([...Object.keys(first), ...Object.keys(second)])].sort();
    for (const key of keys) {
      const at = `${path}/${escape(key)}`;
      if (!Object.hasOwn(first, key) || !Object.hasOwn(second, key)) return at;
      const found = firstDifference(first[key], second[key], at);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  return first === second ? undefined : path;
}
