import type { TSchema } from '@sinclair/typebox';

// Strictly typed buyer clients (native Dart or Swift decoders) reject `12` where the contract
// says float, so every field typed float (Type.Number in contracts/) is written with a decimal
// point. This is the plain writer: the schema walked once into a plan, serializing follows the
// plan, any subtree with no float in it handed to JSON.stringify whole. The gateway writes with
// a faster one generated from the same schema (gateway/speedups/generated-reply-writer.ts),
// tested byte for byte against this one.

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

/** The writer of JSON with floats written as floats, by walking every field of the value. */
export function compileFloatJson(schema: TSchema): JsonWriter {
  const plan = planOf(schema);
  return (value) => write(plan, value);
}
