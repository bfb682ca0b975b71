import { entryFor, type PathSegment } from './pact-rule-paths';

// What a pact expects of one value of the seller's reply: its own matchers, a `type` matcher
// cascading from an ancestor (as pact-js's like/eachLike do), or else equality with the example.
// Whether one expectation accepts every value another accepts decides safe vs breaking.

export type Check =
  | { kind: 'type' }
  | { kind: 'number' }
  | { kind: 'integer' }
  | { kind: 'decimal' }
  | { kind: 'boolean' }
  | { kind: 'regex'; regex: string }
  | { kind: 'include'; value: string }
  | { kind: 'format'; match: string; format: string }
  | { kind: 'other'; raw: string };

export interface Expectation {
  /** Empty: the value must equal the example. Several: all must hold (combine AND). */
  checks: Check[];
  /** Array bounds of a type matcher. */
  min?: number;
  max?: number;
  /** Cascaded from an ancestor's type matcher rather than the path's own. */
  cascaded: boolean;
  /** The combine was OR (rare; compared only as a whole). */
  anyOf: boolean;
}

export interface MatchingRule {
  combine?: string;
  matchers?: Record<string, unknown>[];
}

function checkOf(matcher: Record<string, unknown>): Check {
  switch (matcher.match) {
    case 'type':
      return { kind: 'type' };
    case 'number':
    case 'integer':
    case 'decimal':
    case 'boolean':
      return { kind: matcher.match };
    case 'regex':
      return { kind: 'regex', regex: String(matcher.regex) };
    case 'include':
      return { kind: 'include', value: String(matcher.value) };
    case 'date':
    case 'time':
    case 'timestamp':
    case 'datetime':
      return { kind: 'format', match: matcher.match, format: String(matcher.format ?? '') };
    default: {
      const { min: _min, max: _max, ...rest } = matcher;
      return { kind: 'other', raw: JSON.stringify(rest) };
    }
  }
}

function expectationOf(rule: MatchingRule, cascaded: boolean): Expectation {
  const matchers = rule.matchers ?? [];
  const bound = (key: 'min' | 'max') => matchers.map((m) => m[key]).find((v): v is number => typeof v === 'number');
  // `equality` checks nothing beyond the example, as no matcher does.
  const checks = matchers.filter((m) => m.match !== 'equality').map(checkOf);
  return {
    checks,
    min: bound('min'),
    max: bound('max'),
    cascaded,
    anyOf: rule.combine === 'OR' && matchers.length > 1,
  };
}

const EQUALITY: Expectation = { checks: [], cascaded: false, anyOf: false };

/** The expectation on `path` of a reply body under `rules` (matchingRules.body). */
export function expectationAt(
  rules: Record<string, MatchingRule> | undefined,
  path: readonly PathSegment[],
): Expectation {
  const own = entryFor(rules, path);
  if (own !== undefined) return expectationOf(own, false);
  for (let length = path.length - 1; length >= 0; length--) {
    const ancestor = entryFor(rules, path.slice(0, length));
    if (ancestor !== undefined) {
      // Only a type matcher reaches its descendants; anything else leaves them to equality.
      return (ancestor.matchers ?? []).some((m) => m.match === 'type')
        ? { checks: [{ kind: 'type' }], cascaded: true, anyOf: false }
        : EQUALITY;
    }
  }
  return EQUALITY;
}

export type JsonKind = 'null' | 'boolean' | 'number' | 'string' | 'array' | 'object';
export const jsonKind = (value: unknown): JsonKind =>
  value === null
    ? 'null'
    : Array.isArray(value)
      ? 'array'
      : (typeof value as 'boolean' | 'number' | 'string' | 'object');

function passes(check: Check, example: unknown, value: unknown): boolean | undefined {
  switch (check.kind) {
    case 'type':
      return jsonKind(value) === jsonKind(example);
    case 'number':
      return typeof value === 'number';
    case 'integer':
      return Number.isInteger(value);
    case 'decimal':
      return typeof value === 'number' && !Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'regex':
      // Pact's regex matcher wants the whole value to match (as Java's String.matches), not a part of it.
      try {
        return (
          (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') &&
          new RegExp(`^(?:${check.regex})$`).test(String(value))
        );
      } catch {
        return undefined;
      }
    case 'include':
      return typeof value === 'string' && value.includes(check.value);
    case 'format':
    case 'other':
      return undefined;
  }
}

/** Whether a leaf `value` passes `expectation` whose example is `example` (undefined: cannot tell). */
export function accepts(expectation: Expectation, example: unknown, value: unknown): boolean | undefined {
  if (expectation.checks.length === 0) return JSON.stringify(value) === JSON.stringify(example);
  let known = true;
  for (const check of expectation.checks) {
    const ok = passes(check, example, value);
    if (ok === false) return false;
    if (ok === undefined) known = false;
  }
  return known ? true : undefined;
}

/** The JSON kind every value a check accepts has, if it fixes one. */
function kindFixedBy(check: Check, example: unknown): JsonKind | undefined {
  switch (check.kind) {
    case 'type':
      return jsonKind(example);
    case 'number':
    case 'integer':
    case 'decimal':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'include':
    case 'format':
      return 'string';
    case 'regex':
      return typeof example === 'string' ? 'string' : undefined;
    case 'other':
      return undefined;
  }
}

const sameCheck = (a: Check, b: Check) => JSON.stringify(a) === JSON.stringify(b);

/** Whether every value `base` accepts passes the head check `h` (false when we cannot tell: conservative). */
function headCheckHolds(h: Check, base: Expectation, baseExample: unknown, headExample: unknown): boolean {
  if (base.checks.length === 0) return passes(h, headExample, baseExample) === true;
  if (
    base.checks.some((b) => sameCheck(b, h) && (h.kind !== 'type' || jsonKind(baseExample) === jsonKind(headExample)))
  )
    return true;
  switch (h.kind) {
    case 'type':
    case 'number':
    case 'boolean': {
      const wanted = kindFixedBy(h, headExample);
      return base.checks.some((b) => kindFixedBy(b, baseExample) === wanted);
    }
    case 'decimal':
      return false;
    case 'integer':
      return base.checks.some((b) => b.kind === 'integer');
    case 'include':
      return base.checks.some((b) => b.kind === 'include' && b.value.includes(h.value));
    case 'regex':
    case 'format':
    case 'other':
      return false;
  }
}

/** Whether `head` accepts every leaf value `base` accepts. */
export function loosensOrKeeps(
  base: Expectation,
  baseExample: unknown,
  head: Expectation,
  headExample: unknown,
): boolean {
  if (base.anyOf || head.anyOf)
    return JSON.stringify(base) === JSON.stringify(head) && JSON.stringify(baseExample) === JSON.stringify(headExample);
  if (head.checks.length === 0)
    return base.checks.length === 0 && JSON.stringify(baseExample) === JSON.stringify(headExample);
  return head.checks.every((h) => headCheckHolds(h, base, baseExample, headExample));
}

/** The lengths an array may have under an expectation (equality: exactly the example's). */
export function arrayBounds(expectation: Expectation, example: readonly unknown[]): { min: number; max: number } {
  if (expectation.checks.length === 0) return { min: example.length, max: example.length };
  return { min: expectation.min ?? 0, max: expectation.max ?? Number.POSITIVE_INFINITY };
}
