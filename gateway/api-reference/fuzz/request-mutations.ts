// The requests the fuzzer makes of one documented operation: its example as documented, and
// seeded mutations of it drawn by fast-check. A mutation is a small record (kind and two
// indexes) that fast-check can shrink; `materialize` turns it into raw request text, so values
// JSON.stringify cannot write (1e400, a lone surrogate escape, 10,000 levels of nesting) go out as they are.
import fc from 'fast-check';

export const MUTATION_KINDS = [
  'example',
  'drop-field',
  'wrong-type',
  'unknown-field',
  'number',
  'string',
  'deep-nesting',
  'content-type',
  'oversized',
  'not-json',
  'parameter',
] as const;
export type MutationKind = (typeof MUTATION_KINDS)[number];

export interface Mutation {
  kind: MutationKind;
  a: number;
  b: number;
}

export const mutationArbitrary: fc.Arbitrary<Mutation> = fc.record({
  kind: fc.constantFrom(...MUTATION_KINDS),
  a: fc.nat({ max: 10_000 }),
  b: fc.nat({ max: 10_000 }),
});

/** One operation, ready to be sent: its example request with credentials. */
export interface RequestTemplate {
  method: string;
  /** Path with `{name}` placeholders. */
  path: string;
  pathValues: Record<string, string>;
  query: Record<string, string>;
  headers: Record<string, string>;
  /** The example body; undefined for an operation without one. */
  body?: unknown;
  /** The surface's body limit: an oversized body is this plus a little. */
  maxBodyBytes: number;
}

export interface MaterializedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** What was changed, for the report: "/items/0/id ← 1e400". */
  change: string;
}

const DEEP = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
const MB_STRING = `"${'x'.repeat(1_000_000)}"`;
/** A character from each Unicode plane in use (0, 1, 2, 3, 14, 15, 16), as literal UTF-8. */
const EVERY_PLANE = JSON.stringify('A\u00e9\u4e2d\u{1F600}\u{20000}\u{30000}\u{E0041}\u{F0000}\u{10FFFD}');

export const RAW_NUMBERS = ['0', '-1', '2147483648', '9007199254740993', '1e308', '1e400', '-1e400', '0.5'];
export const RAW_STRINGS = ['""', MB_STRING, '"a\\u0000b"', '"\\ud800"', '"x\\udc00y"', EVERY_PLANE, '"   "', '"1"'];
const RAW_WRONG_TYPES = ['null', 'true', '1', '"1"', '[]', '{}'];
const CONTENT_TYPES: (string | null)[] = [
  null,
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=fuzz',
  'application/xml',
  'application/json; charset=utf-16',
];
const NOT_JSON = ['', '{', '{"a":1}}', "{'single': 'quotes'}", 'NaN', '\u0000', '[1,]'];
const PARAMETER_VALUES = [
  '',
  ' ',
  '0',
  '-1',
  '2147483648',
  '1e400',
  'a\u0000b',
  '\ud800',
  '%',
  'x'.repeat(10_000),
  '../../etc/passwd',
  '🙂',
];

type Pointer = (string | number)[];

/** Every value in a JSON document with its pointer, the root included. */
function places(
  value: unknown,
  at: Pointer = [],
  out: { at: Pointer; value: unknown }[] = [],
): { at: Pointer; value: unknown }[] {
  out.push({ at, value });
  if (Array.isArray(value)) value.forEach((v, i) => places(v, [...at, i], out));
  else if (value !== null && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) places(v, [...at, k], out);
  return out;
}

const pointerText = (at: Pointer) => (at.length === 0 ? '(body)' : `/${at.join('/')}`);
const clone = <T>(value: T): T => structuredClone(value);
const MARK = '\u0001fuzz-raw\u0001';

/** The document with the value at `at` replaced by raw JSON text. */
function withRaw(body: unknown, at: Pointer, raw: string): string {
  if (at.length === 0) return raw;
  const copy = clone(body) as Record<string | number, unknown>;
  let parent = copy;
  for (const key of at.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  parent[at[at.length - 1]] = MARK;
  return JSON.stringify(copy).replace(JSON.stringify(MARK), () => raw);
}

function without(body: unknown, at: Pointer): unknown {
  const copy = clone(body) as Record<string | number, unknown>;
  let parent = copy;
  for (const key of at.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const last = at[at.length - 1];
  if (Array.isArray(parent)) parent.splice(last as number, 1);
  else delete parent[last];
  return copy;
}

const typeOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
const rawType = (raw: string) => typeOf(JSON.parse(raw));
const pick = <T>(list: readonly T[], n: number): T => list[n % list.length];

/** Percent-encoding that keeps a lone surrogate as its raw three bytes (encodeURIComponent throws on one). */
function encodeRaw(text: string): string {
  let out = '';
  for (const char of text) {
    const c = char.charCodeAt(0);
    if (char.length === 1 && c >= 0xd800 && c <= 0xdfff) {
      out += [0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f)]
        .map((byte) => `%${byte.toString(16).toUpperCase()}`)
        .join('');
    } else out += encodeURIComponent(char);
  }
  return out;
}

function urlOf(t: RequestTemplate, pathValues: Record<string, string>, query: Record<string, string>): string {
  const path = t.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeRaw(pathValues[name] ?? ''));
  const search = Object.entries(query)
    .map(([name, value]) => `${encodeRaw(name)}=${encodeRaw(value)}`)
    .join('&');
  return search === '' ? path : `${path}?${search}`;
}

/** The request a mutation makes of a template. Kinds that do not apply fall back to the example. */
export function materialize(t: RequestTemplate, m: Mutation): MaterializedRequest {
  const headers = { ...t.headers };
  const example = (change: string, body?: string): MaterializedRequest => ({
    method: t.method,
    url: urlOf(t, t.pathValues, t.query),
    headers,
    body: body ?? (t.body === undefined ? undefined : JSON.stringify(t.body)),
    change,
  });
  const hasBody = t.body !== undefined;
  const all = hasBody ? places(t.body) : [];
  const leaves = all.filter((p) => p.at.length > 0);
  const objects = all.filter((p) => typeOf(p.value) === 'object');
  const kind: MutationKind = !hasBody && m.kind !== 'example' ? 'parameter' : m.kind;

  switch (kind) {
    case 'example':
      return example('none (the example)');
    case 'drop-field': {
      if (leaves.length === 0) return example('none (nothing to drop)');
      const { at } = pick(leaves, m.a);
      return example(`${pointerText(at)} dropped`, JSON.stringify(without(t.body, at)));
    }
    case 'wrong-type': {
      const { at, value } = pick(all, m.a);
      const choices = RAW_WRONG_TYPES.filter((raw) => rawType(raw) !== typeOf(value));
      const raw = pick(choices, m.b);
      return example(`${pointerText(at)} ← ${raw}`, withRaw(t.body, at, raw));
    }
    case 'unknown-field': {
      if (objects.length === 0) return example('none (no object)');
      const { at } = pick(objects, m.a);
      return example(`${pointerText(at)} gains fuzz_unknown`, withRaw(t.body, [...at, 'fuzz_unknown'], '1'));
    }
    case 'number':
    case 'string': {
      const { at } = pick(leaves.length > 0 ? leaves : all, m.a);
      const raw = pick(kind === 'number' ? RAW_NUMBERS : RAW_STRINGS, m.b);
      const shown = raw.length > 40 ? `a string of ${raw.length - 2} characters` : raw;
      return example(`${pointerText(at)} ← ${shown}`, withRaw(t.body, at, raw));
    }
    case 'deep-nesting': {
      const { at } = m.b % 2 === 0 ? { at: [] as Pointer } : pick(all, m.a);
      return example(`${pointerText(at)} ← 10,000 nested arrays`, withRaw(t.body, at, DEEP));
    }
    case 'content-type': {
      const type = pick(CONTENT_TYPES, m.b);
      if (type === null) delete headers['content-type'];
      else headers['content-type'] = type;
      return example(`content-type ${type ?? 'left out'}`);
    }
    case 'oversized': {
      const text = JSON.stringify(t.body);
      // Valid JSON, padded with whitespace past the limit: only its size is wrong.
      return example(
        `body of ${t.maxBodyBytes + 1024} bytes (limit ${t.maxBodyBytes})`,
        text + ' '.repeat(t.maxBodyBytes + 1024 - Buffer.byteLength(text)),
      );
    }
    case 'not-json': {
      const raw = pick(NOT_JSON, m.b);
      return example(`body ${JSON.stringify(raw)} (not JSON)`, raw);
    }
    case 'parameter':
      return mutatedParameter(t, m, example);
  }
}

/** A path or query parameter given a bad value, or a query parameter left out. */
function mutatedParameter(
  t: RequestTemplate,
  m: Mutation,
  example: (change: string) => MaterializedRequest,
): MaterializedRequest {
  const names = [
    ...Object.keys(t.pathValues).map((n) => ['path', n]),
    ...Object.keys(t.query).map((n) => ['query', n]),
  ];
  if (names.length === 0) return example('none (no parameter)');
  const [where, name] = pick(names, m.a);
  const pathValues = { ...t.pathValues };
  const query = { ...t.query };
  const drop = where === 'query' && m.b % (PARAMETER_VALUES.length + 1) === PARAMETER_VALUES.length;
  // An empty path segment is another URL, not this operation with a bad value.
  const value = pick(where === 'path' ? PARAMETER_VALUES.filter((v) => v.trim() !== '') : PARAMETER_VALUES, m.b);
  if (drop) delete query[name];
  else if (where === 'path') pathValues[name] = value;
  else query[name] = value;
  const shown = value.length > 40 ? `a string of ${value.length} characters` : JSON.stringify(value);
  return {
    ...example(drop ? `query ${name} left out` : `${where} ${name} ← ${shown}`),
    url: urlOf(t, pathValues, query),
  };
}
