// Whether a vendor's schema at one place in the reply allows values the contract's refuses, by
// the keywords that constrain a value of a given type: numeric bounds, string and array
// lengths, uniqueItems, format, pattern. A pattern cannot be compared with another in general:
// a vendor's pattern that differs from the contract's is tried on sample strings, and a sample
// the contract refuses and the vendor allows is the finding. Pure: no I/O.
import { compareBounds, lowerBound, upperBound, type Bound } from '../compat/openapi-schema-shape';
import type { JsonObject } from '../compat/openapi-refs';

/** One place where the vendor's schema allows more than the contract's. */
export interface SchemaGap {
  /** A JSON path into the reply: `$.invoices[*].status`. */
  path: string;
  vendor: string;
  contract: string;
}

/** Strings that break one common pattern or another: empty, control characters, lone surrogates, spaces, case. */
const PATTERN_SAMPLES = [
  '',
  '\u0000',
  '\uD800',
  'a\u0000b',
  '\u001F',
  ' ',
  'a b',
  'a',
  'A',
  'Z9',
  '0',
  '-',
  '.',
  'é',
  '\u{1F600}',
];

/** Characters a string of a given length is made of, to see whether a vendor's pattern allows that length. */
const LENGTH_FILLERS = ['a', 'A', '0', 'x', 'Z', '9', '-', '_', '.', ' '];

const admits = (types: Set<string> | undefined, kind: 'number' | 'string' | 'array') =>
  types === undefined || types.has(kind) || (kind === 'number' && types.has('integer'));

const boundText = (keyword: string, bound: Bound | undefined) =>
  bound === undefined ? `no ${keyword}` : `${keyword} ${bound.exclusive ? '(exclusive) ' : ''}${bound.value}`;

const count = (schema: JsonObject, keyword: string) =>
  typeof schema[keyword] === 'number' ? (schema[keyword] as number) : undefined;

function regex(source: unknown): RegExp | undefined {
  if (typeof source !== 'string') return undefined;
  try {
    return new RegExp(source, 'u');
  } catch {
    return undefined;
  }
}

/** The gaps in value constraints between `vs` (vendor) and `cs` (contract) at `path`; `vTypes` the vendor's types. */
export function constraintGaps(
  vs: JsonObject,
  cs: JsonObject,
  vTypes: Set<string> | undefined,
  path: string,
): SchemaGap[] {
  const gaps: SchemaGap[] = [];
  if (admits(vTypes, 'number'))
    for (const [side, read, keyword] of [
      ['lower', lowerBound, 'minimum'],
      ['upper', upperBound, 'maximum'],
    ] as const) {
      const [v, c] = [read(vs), read(cs)];
      if (compareBounds(side, v, c) === 'wider')
        gaps.push({ path, vendor: boundText(keyword, v), contract: boundText(keyword, c) });
    }
  for (const [kind, low, high] of [
    ['string', 'minLength', 'maxLength'],
    ['array', 'minItems', 'maxItems'],
  ] as const) {
    if (!admits(vTypes, kind)) continue;
    const [vLow, cLow, vHigh, cHigh] = [count(vs, low), count(cs, low), count(vs, high), count(cs, high)];
    // A vendor's pattern may bound the length itself (`^[A-Z]{1,32}$`): tried on strings just past the contract's.
    const pattern = kind === 'string' ? regex(vs.pattern) : undefined;
    const patternAllows = (length: number) =>
      pattern === undefined || LENGTH_FILLERS.some((c) => pattern.test(c.repeat(length)));
    if (cLow !== undefined && cLow > 0 && (vLow ?? 0) < cLow && patternAllows(cLow - 1))
      gaps.push({ path, vendor: vLow === undefined ? `no ${low}` : `${low} ${vLow}`, contract: `${low} ${cLow}` });
    if (cHigh !== undefined && (vHigh === undefined || vHigh > cHigh) && patternAllows(cHigh + 1))
      gaps.push({
        path,
        vendor: vHigh === undefined ? `no ${high}` : `${high} ${vHigh}`,
        contract: `${high} ${cHigh}`,
      });
  }
  if (admits(vTypes, 'array') && cs.uniqueItems === true && vs.uniqueItems !== true)
    gaps.push({ path, vendor: 'items may repeat', contract: 'uniqueItems' });
  if (!admits(vTypes, 'string')) return gaps;
  if (typeof cs.format === 'string' && vs.format !== cs.format)
    gaps.push({
      path,
      vendor: typeof vs.format === 'string' ? `format ${vs.format}` : 'no format',
      contract: `format ${cs.format}`,
    });
  const cPattern = regex(cs.pattern);
  if (cPattern !== undefined && vs.pattern !== cs.pattern) {
    const vPattern = regex(vs.pattern);
    const allowed = PATTERN_SAMPLES.find((s) => !cPattern.test(s) && (vPattern === undefined || vPattern.test(s)));
    if (allowed !== undefined)
      gaps.push({
        path,
        vendor: `${typeof vs.pattern === 'string' ? `pattern ${vs.pattern}` : 'no pattern'}: allows ${JSON.stringify(allowed)}`,
        contract: `pattern ${String(cs.pattern)}`,
      });
  }
  return gaps;
}
