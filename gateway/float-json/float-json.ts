import type { TSchema } from '@sinclair/typebox';
import { generateFloatJsonWriter } from './generated-writer';

// Strictly typed buyer clients (native Dart or Swift decoders) reject `12` where the contract
// says float, so every field typed float (Type.Number in contracts/) is written with a decimal
// point. compileFloatJson is the writer every buyer reply goes through; compileFloatJsonByWalking
// below is the plain reference it is tested against: the schema walked once into a plan,
// serializing follows the plan, any subtree with no float in it handed to JSON.stringify whole.

type Plan =
  | { kind: 'float' }
  | { kind: 'plain' }
  | { kind: 'array'; item: Plan }
  | { kind: 'object'; properties: Map<string, Plan> };

/** Object keys are quoted once, when planned, not on every reply. */
const quotedKeys = new Map<string, string>();
function quoted(key: string): string {
  let text = quotedKeys.get(key);
  if (text === undefined) {
    text = JSON.stringify(key);
    // Keys of seller extras are arbitrary: only remember a bounded number.
    if (quotedKeys.size < 10_000) quotedKeys.set(key, text);
  }
  return text;
}

const PLAIN: Plan = { kind: 'plain' };
const FLOAT: Plan = { kind: 'float' };

function planOf(schema: TSchema): Plan {
  const type = (schema as { type?: unknown }).type;
  if (type === 'number') return FLOAT;
  if (type === 'array') {
    const item = planOf((schema as unknown as { items: TSchema }).items);
    return item === PLAIN ? PLAIN : { kind: 'array', item };
  }
  if (type === 'object') {
    const properties = new Map<string, Plan>();
    for (const [name, property] of Object.entries(
      (schema as { properties?: Record<string, TSchema> }).properties ?? {},
    )) {
      const plan = planOf(property);
      if (plan !== PLAIN) properties.set(name, plan);
    }
    return properties.size === 0 ? PLAIN : { kind: 'object', properties };
  }
  // Integers, strings, booleans, unknowns; unions are not used for floats in the contracts.
  return PLAIN;
}

/** A float with a decimal point: 12 → 12.0; non-integers and exponent forms as JSON writes them. */
function writeFloat(value: unknown): string {
  if (typeof value !== 'number') return JSON.stringify(value) ?? 'null';
  if (Number.isInteger(value) && Math.abs(value) < 1e21) return `${value}.0`;
  return JSON.stringify(value);
}

function write(plan: Plan, value: unknown): string {
  switch (plan.kind) {
    case 'float':
      return writeFloat(value);
    case 'array': {
      if (!Array.isArray(value)) return JSON.stringify(value) ?? 'null';
      let out = '[';
      for (let i = 0; i < value.length; i++) {
        if (i > 0) out += ',';
        // JSON writes undefined in arrays as null.
        out += value[i] === undefined ? 'null' : write(plan.item, value[i]);
      }
      return `${out}]`;
    }
    case 'object': {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) return JSON.stringify(value) ?? 'null';
      let out = '{';
      let first = true;
      for (const key in value) {
        const field = (value as Record<string, unknown>)[key];
        if (field === undefined || typeof field === 'function') continue;
        const fieldPlan = plan.properties.get(key);
        const text = fieldPlan === undefined ? JSON.stringify(field) : write(fieldPlan, field);
        out += `${first ? '' : ','}${quoted(key)}:${text}`;
        first = false;
      }
      return `${out}}`;
    }
    default:
      return JSON.stringify(value) ?? 'null';
  }
}

export type JsonWriter = (value: unknown) => string;
/** JSON as the UTF-8 bytes that go on the wire. */
export type JsonBytesWriter = (value: unknown) => Buffer;

/**
 * The hot-path writer: the schema compiled into JavaScript once (generated-writer.ts), writing
 * `24.0` straight into UTF-8 bytes. It replaced a marker swap (integral floats swapped for
 * marker strings, JSON.stringify, a regex back to `24.0`), then a generated writer of strings;
 * docs/performance.md has the figures of the writer against JSON.stringify.
 */
export function compileFloatJson(schema: TSchema): JsonBytesWriter {
  return generateFloatJsonWriter(schema);
}

/** The same output by walking every field: the reference the fast writer is tested against. */
export function compileFloatJsonByWalking(schema: TSchema): JsonWriter {
  const plan = planOf(schema);
  return (value) => write(plan, value);
}
