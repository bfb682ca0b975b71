import type { TSchema } from '@sinclair/typebox';

// Strictly typed buyer clients (native Dart or Swift decoders) reject `12` where the contract
// says float, so every field typed float (Type.Number in contracts/) is written with a decimal
// point. The schema is walked once into a plan; serializing then follows the plan, and any
// subtree with no float in it is handed to JSON.stringify whole.

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
    for (const [name, property] of Object.entries((schema as { properties?: Record<string, TSchema> }).properties ?? {})) {
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

/**
 * The fast way, for the hot path: integral floats are swapped for a marker string, the native
 * JSON.stringify writes everything, and the markers become `12.0`. The walk touches only the
 * float paths of the plan, and every swapped value is put back, so the input is unchanged.
 * The marker carries a random per-process token, so no seller string can imitate it.
 */
const TOKEN = `~float~${crypto.randomUUID().replace(/-/g, '')}~`;
const MARKER = new RegExp(`"${TOKEN}(-?\\d+)"`, 'g');

interface Swapped {
  holders: Record<string | number, unknown>[];
  keys: (string | number)[];
  values: number[];
}

function swap(plan: Plan, value: unknown, swapped: Swapped): void {
  if (plan.kind === 'array') {
    if (!Array.isArray(value)) return;
    for (let i = 0; i < value.length; i++) visit(plan.item, value as unknown as Record<number, unknown>, i, swapped);
  } else if (plan.kind === 'object') {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return;
    for (const [key, fieldPlan] of plan.properties) visit(fieldPlan, value as Record<string, unknown>, key, swapped);
  }
}

function visit(plan: Plan, holder: Record<string | number, unknown>, key: string | number, swapped: Swapped): void {
  const field = holder[key];
  if (plan.kind === 'float') {
    if (typeof field === 'number' && Number.isInteger(field) && Math.abs(field) < 1e21) {
      holder[key] = `${TOKEN}${field}`;
      // Recorded only once swapped, so a failed swap (frozen holder) has nothing to put back.
      swapped.holders.push(holder);
      swapped.keys.push(key);
      swapped.values.push(field);
    }
  } else if (field !== null && typeof field === 'object') {
    swap(plan, field, swapped);
  }
}

function writeFast(plan: Plan, value: unknown): string {
  const swapped: Swapped = { holders: [], keys: [], values: [] };
  try {
    swap(plan, value, swapped);
  } catch {
    // A frozen or exotic object: put back what was swapped and take the careful way.
    for (let i = 0; i < swapped.holders.length; i++) swapped.holders[i][swapped.keys[i]] = swapped.values[i];
    return write(plan, value);
  }
  try {
    const text = JSON.stringify(value) ?? 'null';
    return swapped.holders.length === 0 ? text : text.replace(MARKER, '$1.0');
  } finally {
    for (let i = 0; i < swapped.holders.length; i++) swapped.holders[i][swapped.keys[i]] = swapped.values[i];
  }
}

export type JsonWriter = (value: unknown) => string;

/** Compiles the schema's plan once; the returned writer serializes any value following it. */
export function compileFloatJson(schema: TSchema): JsonWriter {
  const plan = planOf(schema);
  return (value) => writeFast(plan, value);
}

/** The same output by walking every field: the reference the fast writer is tested against. */
export function compileFloatJsonByWalking(schema: TSchema): JsonWriter {
  const plan = planOf(schema);
  return (value) => write(plan, value);
}
