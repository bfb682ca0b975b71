import { readFileSync } from 'node:fs';
import type { PactMismatch } from './pact-results';

// Where the pact's matcher for a reply's path is a type matcher (type, number, integer,
// decimal) or a regex, the pact's value there is only an example: any value of the type (or
// matching the pattern) passes. Pact's mismatch text still quotes that example as "expected",
// so a vendor wonders whether they must return 5.88 or 24. The kit says what is expected
// instead: the type, the example as an example, and what the seller sent.

interface Matcher {
  match: string;
  regex?: string;
  min?: number;
  max?: number;
}

/** Per interaction description: its reply body's matchers by path (`$.items[*].cost`). */
export type ReplyMatchers = Map<string, Record<string, Matcher[]>>;

interface RawPact {
  interactions?: {
    description?: string;
    response?: { matchingRules?: { body?: Record<string, { matchers?: Matcher[] }> } };
  }[];
}

/** The reply body matchers of every interaction of these pact files (a file that does not parse gives none). */
export function replyMatchersOf(files: readonly string[]): ReplyMatchers {
  const matchers: ReplyMatchers = new Map();
  for (const file of files) {
    let pact: RawPact;
    try {
      pact = JSON.parse(readFileSync(file, 'utf8')) as RawPact;
    } catch {
      continue;
    }
    for (const interaction of pact.interactions ?? []) {
      const body = interaction.response?.matchingRules?.body;
      if (interaction.description === undefined || body === undefined) continue;
      matchers.set(
        interaction.description,
        Object.fromEntries(Object.entries(body).map(([path, rule]) => [path, rule.matchers ?? []])),
      );
    }
  }
  return matchers;
}

/** `$.items[0].locations[*].cost` as segments: items, 0, locations, *, cost. */
function segmentsOf(path: string): string[] | undefined {
  if (!path.startsWith('$')) return undefined;
  const segments: string[] = [];
  const segment = /^(?:\.([^.[\]]+)|\[(\d+|\*)\]|\['((?:[^'\\]|\\.)*)'\])/;
  let rest = path.slice(1);
  while (rest !== '') {
    const m = segment.exec(rest);
    if (m === null) return undefined;
    segments.push(m[1] ?? m[2] ?? m[3].replace(/\\(.)/g, '$1'));
    rest = rest.slice(m[0].length);
  }
  return segments;
}

/** The matchers at a mismatch's path: the rule path that fits it, the one with the fewest wildcards winning. */
export function matchersAt(rules: Record<string, Matcher[]>, path: string): Matcher[] | undefined {
  const target = segmentsOf(path);
  if (target === undefined) return undefined;
  let best: { matchers: Matcher[]; wildcards: number } | undefined;
  for (const [rulePath, matchers] of Object.entries(rules)) {
    const segments = segmentsOf(rulePath);
    if (segments === undefined || segments.length !== target.length) continue;
    if (!segments.every((s, i) => s === '*' || s === target[i])) continue;
    const wildcards = segments.filter((s) => s === '*').length;
    if (best === undefined || wildcards < best.wildcards) best = { matchers, wildcards };
  }
  return best?.matchers;
}

/** A JSON text (as Pact gives expected and actual) as what it is: `a string`, `an integer`, `a decimal number`. */
export function jsonKind(text: string): string {
  const t = text.trim();
  if (t.startsWith('"')) return 'a string';
  if (t === 'true' || t === 'false') return 'a boolean';
  if (t === 'null') return 'null';
  if (t.startsWith('[')) return 'an array';
  if (t.startsWith('{')) return 'an object';
  if (/^-?\d+$/.test(t)) return 'an integer';
  if (/^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(t)) return 'a decimal number';
  return 'a value';
}

/** Pact gives expected and actual as JSON text; a test may give the values themselves. */
const asJsonText = (value: unknown): string | undefined =>
  value === undefined ? undefined : typeof value === 'string' ? value : JSON.stringify(value);

/** What a type-like matcher asks for, and what passes. */
function expectation(matcher: Matcher, example: string): { wanted: string; passes: string } | undefined {
  switch (matcher.match) {
    case 'number':
      return { wanted: 'a number', passes: 'any number passes' };
    case 'integer':
      return { wanted: 'an integer', passes: 'any integer passes' };
    case 'decimal':
      return { wanted: 'a decimal number', passes: 'any decimal passes' };
    case 'regex':
      return { wanted: `a string matching ${matcher.regex ?? ''}`, passes: 'any string matching it passes' };
    case 'type': {
      const kind = jsonKind(example);
      if (kind === 'null' || kind === 'a value') return undefined;
      return { wanted: kind, passes: `any ${kind.replace(/^an? /, '')} passes` };
    }
    default:
      return undefined;
  }
}

/**
 * The mismatch in the kit's words when the pact's value at its path is only an example:
 * `expected a number (the pact's example is 5.88; any number passes), got "5.88" (a string)`.
 * Pact's own text is kept as `pactMessage`. Unchanged when the path is matched by equality.
 */
export function explainedMismatch(mismatch: PactMismatch, rules: Record<string, Matcher[]> | undefined): PactMismatch {
  if (rules === undefined || mismatch.path === undefined) return mismatch;
  const matchers = matchersAt(rules, mismatch.path);
  const example = asJsonText(mismatch.expected);
  const actual = asJsonText(mismatch.actual);
  if (matchers === undefined || matchers.length !== 1 || example === undefined || actual === undefined) return mismatch;
  // An array's or an object's mismatch (a missing key, too few entries) is about its shape: Pact's words say it.
  if (['an array', 'an object'].includes(jsonKind(example))) return mismatch;
  const wanted = expectation(matchers[0], example);
  if (wanted === undefined) return mismatch;
  return {
    ...mismatch,
    message: `expected ${wanted.wanted} (the pact's example is ${example}; ${wanted.passes}), got ${actual} (${jsonKind(actual)})`,
    pactMessage: mismatch.message,
    exampleOnly: true,
  };
}
