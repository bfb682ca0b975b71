import type { TSchema } from '@sinclair/typebox';
import { FORMATS, type FormatName } from '../../contracts/formats';
import { PLAIN_TEXT_PATTERN } from '../../contracts/schemas/common';
import { codePoints, isPlainText } from '../../contracts/string-checks';

// One walk over a parsed payload, generated from its TypeBox schema as Ajv's standalone code
// and fast-json-stringify generate theirs: the schema turned into JavaScript once, with
// `new Function`, at first use. The walk answers one question, the one nearly every seller
// reply asks: does the payload have the contract's shape exactly, with no field beyond it?
// On the way it calls hooks (the reply rules, gateway/speedups/one-pass-check.ts) at the nodes
// named by the caller, so the rules run in the same pass. It does not say what is wrong: a
// payload it refuses goes to the reference path (Ajv's full pass and the rules), which does.
//
// Why at start rather than a generated file committed by `npm run schemas`: the schemas are in
// memory anyway, the generated writer (gateway/speedups/generated-reply-writer.ts) and Ajv are
// compiled the same way, and there is no second copy of the contract to keep in step.

/**
 * Hooks by node: '' is the payload, '/items/*' each element of its `items`, and so on. `enter`
 * runs once the node's own scalar fields have passed (before its lists and objects), `leave`
 * after the whole node has. Each is called as `(state, root, element0, index0, element1, index1, …)`:
 * the payload, then each enclosing array element and its index, outermost first.
 */
export type WalkHooks = Record<string, { enter?: string; leave?: string }>;

/** True when the payload has exactly the schema's shape (no extra field); `state` goes to the hooks. */
export type OnePassWalk<State> = (payload: unknown, state: State, hooks: object) => boolean;

type Node = Record<string, unknown>;

/** Keywords that only describe; anything else the walk does not know refuses to generate. */
const ANNOTATIONS = new Set([
  'title',
  'description',
  'examples',
  '$id',
  'default',
  'deprecated',
  'readOnly',
  'writeOnly',
]);
const KNOWN: Record<string, string[]> = {
  object: ['type', 'properties', 'required', 'additionalProperties'],
  array: ['type', 'items', 'minItems'],
  string: ['type', 'minLength', 'maxLength', 'pattern', 'format'],
  integer: ['type', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'enum'],
  number: ['type', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'enum'],
  boolean: ['type'],
  const: ['const', 'type'],
};

/** Places remembered per list for formatted strings (past it, each string is parsed). */
const MAX_PLACES = 256;

interface Gen {
  /** Values the generated code reads by name: format checks, patterns. */
  refs: unknown[];
  /** Per-call memos of formatted strings, declared at the top of the walk. */
  memos: number;
  vars: number;
  hooks: WalkHooks;
  /** Hook paths met while generating: a hook at a path the schema lacks is a mistake. */
  met: Set<string>;
}

const fresh = (g: Gen, prefix: string) => `${prefix}${g.vars++}`;
const ref = (g: Gen, value: unknown) => {
  g.refs.push(value);
  return `r[${g.refs.length - 1}]`;
};

function known(node: Node, kind: string, at: string): void {
  for (const key of Object.keys(node)) {
    if (!KNOWN[kind].includes(key) && !ANNOTATIONS.has(key))
      throw new Error(`one-pass walk: keyword '${key}' at ${at || '/'} is not supported`);
  }
}

/**
 * Statements checking the value in variable `v` (schema `node`, at path `at`); `scope` lists the
 * enclosing arrays' element and index variables, outermost first. Every failure is `return false`.
 */
function check(g: Gen, node: Node, v: string, at: string, scope: string[]): string {
  if ('const' in node) {
    known(node, 'const', at);
    if (node.const === null || typeof node.const === 'object')
      throw new Error(`one-pass walk: only a scalar const at ${at}`);
    return `if (${v} !== ${JSON.stringify(node.const)}) return false;`;
  }
  const type = node.type;
  if (typeof type !== 'string' || !(type in KNOWN))
    throw new Error(`one-pass walk: type ${JSON.stringify(type)} at ${at || '/'} is not supported`);
  known(node, type, at);
  switch (type) {
    case 'object':
      return checkObject(g, node, v, at, scope);
    case 'array': {
      const i = fresh(g, 'i');
      const e = fresh(g, 'e');
      const min = typeof node.minItems === 'number' ? ` || ${v}.length < ${node.minItems}` : '';
      const item = check(g, node.items as Node, e, `${at}/*`, [...scope, e, i]);
      return `if (!Array.isArray(${v})${min}) return false;
for (let ${i} = 0; ${i} < ${v}.length; ${i}++) { const ${e} = ${v}[${i}];
${item}
}`;
    }
    case 'string': {
      const parts = [`typeof ${v} !== 'string'`];
      if (typeof node.minLength === 'number') {
        if (node.minLength !== 1) throw new Error(`one-pass walk: minLength other than 1 at ${at}`);
        parts.push(`${v}.length === 0`);
      }
      // A string no longer than n UTF-16 units has at most n code points: only a longer one is counted.
      if (typeof node.maxLength === 'number')
        parts.push(`(${v}.length > ${node.maxLength} && ${ref(g, codePoints)}(${v}) > ${node.maxLength})`);
      if (typeof node.pattern === 'string') {
        parts.push(
          node.pattern === PLAIN_TEXT_PATTERN
            ? `!${ref(g, isPlainText)}(${v})`
            : `!${ref(g, new RegExp(node.pattern, 'u'))}.test(${v})`,
        );
      }
      let out = `if (${parts.join(' || ')}) return false;`;
      if (typeof node.format === 'string') out += `\n${checkFormat(g, node.format, v, at, scope)}`;
      return out;
    }
    case 'integer':
    case 'number': {
      // strictNumbers: Infinity (JSON.parse's 1e400) is neither.
      const parts = [
        type === 'integer' ? `!Number.isInteger(${v})` : `typeof ${v} !== 'number' || !Number.isFinite(${v})`,
      ];
      if (typeof node.minimum === 'number') parts.push(`${v} < ${node.minimum}`);
      if (typeof node.maximum === 'number') parts.push(`${v} > ${node.maximum}`);
      if (typeof node.exclusiveMinimum === 'number') parts.push(`${v} <= ${node.exclusiveMinimum}`);
      if (typeof node.exclusiveMaximum === 'number') parts.push(`${v} >= ${node.exclusiveMaximum}`);
      if (Array.isArray(node.enum)) {
        if (!node.enum.every((x) => typeof x === 'number'))
          throw new Error(`one-pass walk: enum of other than numbers at ${at}`);
        parts.push(`!(${node.enum.map((x) => `${v} === ${x}`).join(' || ')})`);
      }
      return `if (${parts.join(' || ')}) return false;`;
    }
    case 'boolean':
      return `if (typeof ${v} !== 'boolean') return false;`;
  }
  throw new Error(`one-pass walk: unreachable type ${type}`);
}

/**
 * A format: inside a list of a list (a location's route times), the string is compared first
 * with the one accepted at the same place (the same indices, the outermost aside) earlier in
 * this payload, as the validator's memo does (contracts/format-memo.ts): a seller repeats each
 * location's route times on every entry. Only strings that passed are remembered.
 */
function checkFormat(g: Gen, format: string, v: string, at: string, scope: string[]): string {
  if (!(format in FORMATS)) throw new Error(`one-pass walk: unknown format '${format}' at ${at}`);
  const test = ref(g, FORMATS[format as FormatName]);
  const indices = scope.filter((_, n) => n % 2 === 1);
  if (indices.length < 2) return `if (!${test}(${v})) return false;`;
  const [outer, ...inner] = indices;
  void outer;
  const memo = `m${g.memos++}`;
  // memo[i1][i2]…: nested arrays, each place below MAX_PLACES.
  const bounded = inner.map((i) => `${i} < ${MAX_PLACES}`).join(' && ');
  let reach = memo;
  let walk = '';
  for (const i of inner.slice(0, -1)) {
    const next = fresh(g, 'k');
    walk += `let ${next} = ${reach}[${i}]; if (${next} === undefined) ${reach}[${i}] = ${next} = [];\n`;
    reach = next;
  }
  const last = inner[inner.length - 1];
  return `if (${bounded}) {
${walk}if (${v} !== ${reach}[${last}]) { if (!${test}(${v})) return false; ${reach}[${last}] = ${v}; }
} else if (!${test}(${v})) return false;`;
}

function checkObject(g: Gen, node: Node, v: string, at: string, scope: string[]): string {
  const properties = Object.entries((node.properties as Record<string, Node> | undefined) ?? {});
  const required = new Set((node.required as string[] | undefined) ?? []);
  for (const name of required)
    if (!properties.some(([p]) => p === name))
      throw new Error(`one-pass walk: required '${name}' without a schema at ${at}`);
  const hook = g.hooks[at];
  if (hook !== undefined) g.met.add(at);
  const count = fresh(g, 'n');
  let present = `${required.size}`;
  const scalars: string[] = [];
  const nested: string[] = [];
  for (const [name, schema] of properties) {
    const field = fresh(g, 'f');
    const lines = [`const ${field} = ${v}[${JSON.stringify(name)}];`];
    const body = check(g, schema, field, `${at}/${name}`, scope);
    if (required.has(name)) lines.push(`if (${field} === undefined) return false;`, body);
    else {
      present += ` + (${field} !== undefined ? 1 : 0)`;
      lines.push(`if (${field} !== undefined) {\n${body}\n}`);
    }
    (schema.type === 'object' || schema.type === 'array' ? nested : scalars).push(lines.join('\n'));
  }
  const args = ['s', 'root', ...scope].join(', ');
  // Open or closed alike, an extra field makes the payload not plain: the reference path then
  // says whether it is a note (open) or an error (closed). Counting keys is what Ajv's quick pass does.
  return `if (${v} === null || typeof ${v} !== 'object' || Array.isArray(${v})) return false;
let ${count} = 0; for (const _ in ${v}) ${count}++;
${scalars.join('\n')}
${hook?.enter ? `h.${hook.enter}(${args});` : ''}
${nested.join('\n')}
if (${count} !== ${present}) return false;
${hook?.leave ? `h.${hook.leave}(${args});` : ''}`;
}

/** The walk of `schema`, with `hooks` called at the nodes they name. */
export function generateOnePassWalk<State>(schema: TSchema, hooks: WalkHooks = {}): OnePassWalk<State> {
  const g: Gen = { refs: [], memos: 0, vars: 0, hooks, met: new Set() };
  const body = check(g, schema as unknown as Node, 'root', '', []);
  for (const at of Object.keys(hooks))
    if (!g.met.has(at)) throw new Error(`one-pass walk: no object at hook path '${at}'`);
  const memos = Array.from({ length: g.memos }, (_, n) => `const m${n} = [];`).join(' ');
  const source = `return function fusedWalk(root, s, h) {\n${memos}\n${body}\nreturn true;\n};`;
  return new Function('r', source)(g.refs) as OnePassWalk<State>;
}
