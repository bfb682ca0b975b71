import type { TSchema } from '@sinclair/typebox';

// The hot-path buyer-reply writer: the contract schema is turned once into JavaScript source,
// one function per object and array of the schema, with each known field written by its
// type (a float as `24.0`, an integer or a plain string) and anything else (seller extras,
// unions, a value of the wrong type) handed to JSON.stringify. Compiled with new Function, as
// Ajv compiles validators.
//
// It writes UTF-8 bytes, not a string: a string built piece by piece is a rope of thousands of
// small strings (~40 KB of garbage for a 6 KB reply) that Node flattens and encodes again
// before the socket takes it. Replies are written one after another into a shared slab and
// handed out as views of it, as Node's own Buffer pool does for small buffers: no allocation
// or copy per reply, and a slab is garbage once the last reply in it has been sent. Keys are
// unrolled into byte stores when the source is generated; ASCII strings and small integers
// are copied byte by byte; anything else (an escape, a non-ASCII character, an exponent) goes
// through JSON.stringify. Output is byte for byte what the plain writer of gateway/float-json/
// writes; generated-reply-writer.test.ts checks that on random values. Measured gain: without it
// the gateway serves 0.68 of the bare proxy's item inquiries, not 0.88, at 1.50 times its CPU a
// request, not 1.15 (docs/performance.md, "Speed-ups").

type Shape =
  | { kind: 'float' | 'integer' | 'string' | 'boolean' | 'plain' }
  | { kind: 'array'; item: Shape }
  | { kind: 'object'; properties: [string, Shape][] };

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
        properties: Object.entries((schema as { properties?: Record<string, TSchema> }).properties ?? {}).map(
          ([name, property]) => [name, shapeOf(property)],
        ),
      };
    default:
      // Unions, unknowns: whatever the value is, as JSON writes it.
      return { kind: 'plain' };
  }
}

const SLAB_BYTES = 65_536;
/** Integers below this are written digit by digit; larger ones through their string. */
const SMALL_INTEGER = 2 ** 31;

/**
 * Where the generated functions write: the current slab, this reply's start
 * in it, the position. One per compiled writer (writing is synchronous).
 */
interface Output {
  b: Buffer;
  start: number;
  p: number;
}

/** Past the slab's end: this reply so far moves to the start of a new slab (larger for a large reply). */
function moveToNewSlab(o: Output, bytes: number): void {
  const written = o.p - o.start;
  let size = SLAB_BYTES;
  while (size < 2 * (written + bytes)) size *= 2;
  const slab = Buffer.allocUnsafeSlow(size);
  o.b.copy(slab, 0, o.start, o.p);
  o.b = slab;
  o.start = 0;
  o.p = written;
}

/** A non-negative integer below SMALL_INTEGER. */
function writeDigits(o: Output, n: number): void {
  if (o.p + 10 > o.b.length) moveToNewSlab(o, 10);
  const b = o.b;
  let length = 1;
  for (let rest = n; rest >= 10; rest = Math.floor(rest / 10)) length++;
  let p = o.p + length;
  o.p = p;
  let rest = n;
  do {
    b[--p] = 0x30 + (rest % 10);
    rest = Math.floor(rest / 10);
  } while (rest > 0);
}

/**
 * A positive non-integer below SMALL_INTEGER with at most two decimals (a price), given as its
 * hundredths: what `${value}` writes, without V8's shortest-digits search. It is the same text:
 * the double is the nearest one to cents / 100, and below 2^31 doubles are far closer together
 * than 0.01, so no decimal with fewer digits rounds to it (generated-reply-writer.test.ts checks it).
 */
function writeCents(o: Output, cents: number): void {
  const units = Math.floor(cents / 100);
  const hundredths = cents - units * 100;
  writeDigits(o, units);
  if (o.p + 3 > o.b.length) moveToNewSlab(o, 3);
  const b = o.b;
  b[o.p++] = 0x2e;
  b[o.p++] = 0x30 + Math.floor(hundredths / 10);
  if (hundredths % 10 !== 0) b[o.p++] = 0x30 + (hundredths % 10);
}

/** Helpers the generated code calls, bound to one writer's output. */
function runtimeFor(o: Output) {
  /** Room for `bytes` more, in a new slab when this one is full. */
  const room = (bytes: number): void => {
    if (o.p + bytes > o.b.length) moveToNewSlab(o, bytes);
  };
  /** Any text, UTF-8 encoded. */
  const text = (value: string): void => {
    room(value.length * 3);
    o.p += o.b.write(value, o.p, 'utf8');
  };
  /**
   * Text known to be ASCII (a number, null, true, false), byte by byte: shorter than a call into Buffer's native write.
   */
  const ascii = (value: string): void => {
    const length = value.length;
    room(length);
    const b = o.b;
    let p = o.p;
    for (let i = 0; i < length; i++) b[p++] = value.charCodeAt(i);
    o.p = p;
  };
  const stringify = (value: unknown): void => text(JSON.stringify(value) ?? 'null');
  /**
   * A string JSON would write as is (printable ASCII, no quote or
   * backslash) byte by byte; anything else through JSON.stringify.
   */
  const string = (value: unknown): void => {
    if (typeof value !== 'string') return stringify(value);
    const length = value.length;
    room(length + 2);
    const b = o.b;
    let p = o.p;
    b[p++] = 0x22;
    for (let i = 0; i < length; i++) {
      const c = value.charCodeAt(i);
      if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) return stringify(value);
      b[p++] = c;
    }
    b[p++] = 0x22;
    o.p = p;
  };
  const digits = (n: number): void => writeDigits(o, n);
  const centsDigits = (cents: number): void => writeCents(o, cents);
  // Finite numbers: `${n}` is what JSON writes (-0 as 0 included); NaN and ±Infinity become null.
  const integer = (value: unknown): void => {
    if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < SMALL_INTEGER)
      return digits(value);
    if (typeof value === 'number' && Number.isFinite(value)) return ascii(`${value}`);
    stringify(value);
  };
  /** A float with a decimal point: 12 → 12.0; non-integers and exponent forms as JSON writes them. */
  const float = (value: unknown): void => {
    if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < SMALL_INTEGER) {
      digits(value);
      room(2);
      o.b[o.p++] = 0x2e;
      o.b[o.p++] = 0x30;
      return;
    }
    if (typeof value === 'number' && value > 0 && value < SMALL_INTEGER) {
      const cents = Math.round(value * 100);
      if (cents / 100 === value) return centsDigits(cents);
    }
    if (typeof value === 'number' && Number.isInteger(value) && Math.abs(value) < 1e21) return ascii(`${value}.0`);
    if (typeof value === 'number' && Number.isFinite(value)) return ascii(`${value}`);
    stringify(value);
  };
  const boolean = (value: unknown): void =>
    value === true ? ascii('true') : value === false ? ascii('false') : stringify(value);
  return { room, text, ascii, stringify, string, integer, float, boolean };
}

const HELPERS = ['o', 'room', 'text', 'ascii', 'stringify', 'string', 'integer', 'float', 'boolean'] as const;

/** Statements writing `literal` (ASCII) as unrolled byte stores. */
function literal(value: string): string {
  const bytes = [...Buffer.from(value, 'utf8')];
  const stores = bytes.map((byte, i) => `b[p${i === 0 ? '' : ` + ${i}`}] = ${byte};`).join(' ');
  return `room(${bytes.length}); { const b = o.b, p = o.p; ${stores} o.p = p + ${bytes.length}; }`;
}

const byte = (value: number) => `room(1); o.b[o.p++] = ${value};`;

/** Generates the source of one writer function per object/array shape; returns the entry function's name. */
function generate(shape: Shape, functions: string[]): string {
  const name = `w${functions.length}`;
  functions.push('');
  let body: string;
  if (shape.kind === 'array') {
    const item = valueStatement(shape.item, 'v[i]', functions);
    body = `function ${name}(v) {
  if (!Array.isArray(v)) return stringify(v);
  ${byte(0x5b)}
  for (let i = 0; i < v.length; i++) {
    if (i > 0) { ${byte(0x2c)} }
    if (v[i] === undefined || typeof v[i] === 'function') ascii('null'); else ${item};
  }
  ${byte(0x5d)}
}`;
  } else if (shape.kind === 'object') {
    const cases = shape.properties
      .map(
        ([key, property]) =>
          `      case ${JSON.stringify(key)}: ${literal(`${JSON.stringify(key)}:`)} ${valueStatement(property, 'f', functions)}; break;`,
      )
      .join('\n');
    body = `function ${name}(v) {
  if (v === null || typeof v !== 'object' || Array.isArray(v) || typeof v.toJSON === 'function') return stringify(v);
  ${byte(0x7b)}
  let first = true;
  for (const k in v) {
    const f = v[k];
    if (f === undefined || typeof f === 'function' || typeof f === 'symbol') continue;
    if (first) first = false; else { ${byte(0x2c)} }
    switch (k) {
${cases}
      default: text(JSON.stringify(k) + ':'); stringify(f);
    }
  }
  ${byte(0x7d)}
}`;
  } else {
    throw new Error(`only objects and arrays get a writer function, not ${shape.kind}`);
  }
  functions[Number(name.slice(1))] = body;
  return name;
}

function valueStatement(shape: Shape, value: string, functions: string[]): string {
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

/**
 * Compiles the schema into a writer of UTF-8 JSON: floats with
 * a decimal point, everything else as JSON.stringify writes it.
 */
export function generateFloatJsonWriter(schema: TSchema): (value: unknown) => Buffer {
  const shape = shapeOf(schema);
  const functions: string[] = [];
  const entry = shape.kind === 'array' || shape.kind === 'object' ? generate(shape, functions) : undefined;
  const write = entry ?? `((v) => ${valueStatement(shape, 'v', functions)})`;
  const o: Output = { b: Buffer.allocUnsafeSlow(SLAB_BYTES), start: 0, p: 0 };
  const source = `${functions.join('\n')}\nreturn (v) => { o.start = o.p; ${write}(v); };`;
  const factory = new Function(...HELPERS, source) as (...helpers: unknown[]) => (value: unknown) => void;
  const runtime = runtimeFor(o);
  const fill = factory(
    o,
    runtime.room,
    runtime.text,
    runtime.ascii,
    runtime.stringify,
    runtime.string,
    runtime.integer,
    runtime.float,
    runtime.boolean,
  );
  return (value) => {
    try {
      fill(value);
    } catch (error) {
      o.p = o.start;
      throw error;
    }
    // The reply is a view of the slab; the next one starts where it ends.
    const reply = o.b.subarray(o.start, o.p);
    // A slab grown for one large reply stays with that reply; the next ones start a usual one.
    if (o.b.length > SLAB_BYTES) {
      o.b = Buffer.allocUnsafeSlow(SLAB_BYTES);
      o.p = 0;
    }
    return reply;
  };
}
