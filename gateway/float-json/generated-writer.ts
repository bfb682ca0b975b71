import type { TSchema } from '@sinclair/typebox';

// The hot-path buyer-reply writer: the contract schema is turned once into JavaScript source,
// one function per object and array of the schema, with each known field written by its
// type (a float as `24.0`, an integer or a plain string straight into the text) and anything
// else (seller extras, unions, a value of the wrong type) handed to JSON.stringify. Compiled
// with new Function, as Ajv compiles validators. Output is byte for byte what the walking
// writer in float-json.ts writes; float-json.test.ts checks that on random values.

type Shape =
  { kind: 'float' | 'integer' | 'string' | 'boolean' | 'plain' } | { kind: 'array'; item: Shape } | { kind: 'object'; properties: [string, Shape][] };

function shapeOf(schema: TSchema): Shape {
  switch ((schema as { type?: unknown }).type) {
    case 'number':
      return { kind: 'float' };
    case 'integer':
      return { kind: 'integer' };
    case 'string':
      return { kind: 'string' };
    case 'boolean':
      return { kind: 'boolean' };
    case 'array':
      return { kind: 'array', item: shapeOf((schema as unknown as { items: TSchema }).items) };
    case 'object':
      return {
        kind: 'object',
        properties: Object.entries((schema as { properties?: Record<string, TSchema> }).properties ?? {}).map(([name, property]) => [name, shapeOf(property)]),
      };
    default:
      // Unions, unknowns: whatever the value is, as JSON writes it.
      return { kind: 'plain' };
  }
}

/** Characters JSON.stringify escapes in a string: quote, backslash, controls, lone surrogates. */
// eslint-disable-next-line no-control-regex -- finding control characters is this pattern's purpose
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** Helpers the generated code calls, passed in rather than reached through globals. */
const runtime = {
  stringify: (value: unknown): string => JSON.stringify(value) ?? 'null',
  string: (value: unknown): string => (typeof value === 'string' && !NEEDS_ESCAPE.test(value) ? `"${value}"` : (JSON.stringify(value) ?? 'null')),
  float: (value: unknown): string =>
    typeof value === 'number' && Number.isInteger(value) && Math.abs(value) < 1e21 ? `${value}.0` : (JSON.stringify(value) ?? 'null'),
  // Finite numbers: `${n}` is what JSON writes (-0 as 0 included); NaN and ±Infinity become null.
  integer: (value: unknown): string => (typeof value === 'number' && Number.isFinite(value) ? `${value}` : (JSON.stringify(value) ?? 'null')),
  boolean: (value: unknown): string => (value === true ? 'true' : value === false ? 'false' : (JSON.stringify(value) ?? 'null')),
};

/** Generates the source of one writer function per object/array shape; returns the entry function's name. */
function generate(shape: Shape, functions: string[]): string {
  const name = `w${functions.length}`;
  functions.push('');
  let body: string;
  if (shape.kind === 'array') {
    const item = valueExpression(shape.item, 'v[i]', functions);
    body = `function ${name}(v) {
  if (!Array.isArray(v)) return stringify(v);
  let out = '[';
  for (let i = 0; i < v.length; i++) {
    if (i > 0) out += ',';
    out += v[i] === undefined || typeof v[i] === 'function' ? 'null' : ${item};
  }
  return out + ']';
}`;
  } else if (shape.kind === 'object') {
    const cases = shape.properties
      .map(
        ([key, property]) =>
          `      case ${JSON.stringify(key)}: out += ${JSON.stringify(`${JSON.stringify(key)}:`)} + ${valueExpression(property, 'f', functions)}; break;`,
      )
      .join('\n');
    body = `function ${name}(v) {
  if (v === null || typeof v !== 'object' || Array.isArray(v) || typeof v.toJSON === 'function') return stringify(v);
  let out = '{';
  let first = true;
  for (const k in v) {
    const f = v[k];
    if (f === undefined || typeof f === 'function' || typeof f === 'symbol') continue;
    if (first) first = false; else out += ',';
    switch (k) {
${cases}
      default: out += JSON.stringify(k) + ':' + stringify(f);
    }
  }
  return out + '}';
}`;
  } else {
    throw new Error(`only objects and arrays get a writer function, not ${shape.kind}`);
  }
  functions[Number(name.slice(1))] = body;
  return name;
}

function valueExpression(shape: Shape, value: string, functions: string[]): string {
  switch (shape.kind) {
    case 'array':
    case 'object':
      return `${generate(shape, functions)}(${value})`;
    case 'plain':
      return `stringify(${value})`;
    default:
      return `${shape.kind}(${value})`;
  }
}

/** Compiles the schema into a writer: floats with a decimal point, everything else as JSON.stringify writes it. */
export function generateFloatJsonWriter(schema: TSchema): (value: unknown) => string {
  const shape = shapeOf(schema);
  const functions: string[] = [];
  const entry = shape.kind === 'array' || shape.kind === 'object' ? generate(shape, functions) : undefined;
  const source = `${functions.join('\n')}\nreturn ${entry ?? `(v) => ${valueExpression(shape, 'v', functions)}`};`;
  const factory = new Function('stringify', 'string', 'float', 'integer', 'boolean', source) as (...helpers: unknown[]) => (value: unknown) => string;
  return factory(runtime.stringify, runtime.string, runtime.float, runtime.integer, runtime.boolean);
}
