// Compares two JSON Schemas read in one direction. A request schema is what the buyer writes:
// head must accept all that base accepted, so narrowing breaks. A reply schema is what the
// buyer reads: head may only send what base could, so widening breaks (except unknown fields:
// buyers are tolerant readers). References are followed on both sides first; a recursive schema
// stops where the same pair of nodes is already being compared.
import type { Direction, OpenApiPolicy } from './openapi-compat-policy';
import { report, type FindingSink } from './openapi-finding';
import { follow, isObject, pointerChild, type JsonObject, type Located } from './openapi-refs';
import {
  ANNOTATIONS,
  asObjectSchema,
  branchesOf,
  canonical,
  compareBounds,
  enumValues,
  isValueBranch,
  lowerBound,
  mergeAllOf,
  propertyAt,
  typeSet,
  typesWithin,
  upperBound,
  type Bound,
} from './openapi-schema-shape';
import { diffUnion } from './openapi-union-diff';

export interface SchemaComparison extends FindingSink {
  base: unknown;
  head: unknown;
  /** Pairs of nodes being compared now (a recursive schema meets one again). */
  comparing: Set<string>;
  ids: Map<object, number>;
}

export function schemaComparison(base: unknown, head: unknown, sink: FindingSink): SchemaComparison {
  return { ...sink, findings: sink.findings, base, head, comparing: new Set(), ids: new Map() };
}

/** How a change moved the set of admitted values. */
type Move = 'narrower' | 'wider' | 'other';

// One policy per direction and move: what breaks a writer is safe for a reader and back.
const MOVES = {
  type: {
    request: { narrower: 'request-type-narrowed', wider: 'request-type-widened', other: 'request-type-narrowed' },
    reply: { narrower: 'reply-type-narrowed', wider: 'reply-type-changed', other: 'reply-type-changed' },
  },
  enum: {
    request: { narrower: 'request-enum-narrowed', wider: 'request-enum-widened', other: 'request-enum-narrowed' },
    reply: { narrower: 'reply-enum-narrowed', wider: 'reply-enum-widened', other: 'reply-enum-widened' },
  },
  range: {
    request: { narrower: 'request-range-narrowed', wider: 'request-range-loosened', other: 'request-range-narrowed' },
    reply: { narrower: 'reply-range-narrowed', wider: 'reply-range-widened', other: 'reply-range-widened' },
  },
} as const satisfies Record<string, Record<Direction, Record<Move, OpenApiPolicy>>>;

const idOf = (c: SchemaComparison, node: unknown) => {
  if (!isObject(node)) return `=${JSON.stringify(node)}`;
  let id = c.ids.get(node);
  if (id === undefined) c.ids.set(node, (id = c.ids.size + 1));
  return String(id);
};

export function diffSchemas(c: SchemaComparison, base: Located, head: Located, direction: Direction): void {
  const b = follow(c.base, base);
  const h = follow(c.head, head);
  const pair = `${idOf(c, b.node)}:${idOf(c, h.node)}`;
  if (c.comparing.has(pair)) return;
  c.comparing.add(pair);
  try {
    diffResolved(c, mergeAllOf(c.base, b), mergeAllOf(c.head, h), direction);
  } finally {
    c.comparing.delete(pair);
  }
}

function diffResolved(c: SchemaComparison, b: Located, h: Located, direction: Direction): void {
  let baseBranches = branchesOf(b);
  let headBranches = branchesOf(h);
  if (baseBranches === undefined && headBranches === undefined) return diffKeywords(c, b, h, direction);
  // One side a union, the other not: the plain side is a union of one branch (made nullable, say).
  const [bRest, bBranches] = baseBranches === undefined ? liftToBranch(b) : [withoutUnion(b), baseBranches];
  const [hRest, hBranches] = headBranches === undefined ? liftToBranch(h) : [withoutUnion(h), headBranches];
  const bValuesAt = valuesAt(b, baseBranches);
  const hValuesAt = valuesAt(h, headBranches);
  baseBranches = bBranches;
  headBranches = hBranches;
  const allValues = [...baseBranches.map((x) => [c.base, x] as const), ...headBranches.map((x) => [c.head, x] as const)].every(([doc, x]) =>
    isValueBranch(doc, x.node),
  );
  if (allValues) {
    // A union of literals is an enum: compared as one, so a value added is an enum widened.
    diffKeywords(c, asEnum(c.base, bRest, baseBranches, bValuesAt), asEnum(c.head, hRest, headBranches, hValuesAt), direction);
    return;
  }
  diffKeywords(c, bRest, hRest, direction);
  diffUnion(c, baseBranches, headBranches, direction, (x, y) => diffSchemas(c, x, y, direction));
}

const withoutUnion = (l: Located): Located => {
  const { anyOf: _a, oneOf: _o, ...rest } = l.node as JsonObject;
  return { node: rest, at: l.at };
};

// The whole schema becomes the one branch (its wording with it, to meet its twin's).
const liftToBranch = (l: Located): [Located, Located[]] => [{ node: {}, at: l.at }, [l]];

/** Where a value list stands: the anyOf/oneOf, or the enum/const of a plain schema. */
function valuesAt(l: Located, branches: Located[] | undefined): string {
  const schema = l.node as JsonObject;
  if (branches !== undefined) return pointerChild(l.at, Array.isArray(schema.anyOf) ? 'anyOf' : 'oneOf');
  return pointerChild(l.at, 'enum' in schema ? 'enum' : 'const');
}

/** Value lists folded from unions, with the pointer of their list. */
const FOLDED = new WeakMap<object, string>();

function asEnum(document: unknown, rest: Located, branches: Located[], at: string): Located {
  const values: unknown[] = [];
  const types = new Set<string>();
  let typed = true;
  for (const branch of branches) {
    const schema = asObjectSchema(follow(document, branch).node);
    values.push(...(enumValues(schema) ?? []));
    const set = typeSet(schema);
    if (set === undefined) typed = false;
    else set.forEach((t) => types.add(t));
  }
  const node: JsonObject = { ...(rest.node as JsonObject), enum: values };
  if (typed && types.size > 0) node.type = [...types].sort();
  FOLDED.set(node, at);
  return { node, at: rest.at };
}

// Keywords read below; any other that differs is a change no rule names (schema-changed).
const READ = new Set([
  'type',
  'nullable',
  'enum',
  'const',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
  'multipleOf',
  'uniqueItems',
  'pattern',
  'format',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'anyOf',
  'oneOf',
  'allOf',
]);

const COUNTS = [
  ['minLength', 'lower'],
  ['maxLength', 'upper'],
  ['minItems', 'lower'],
  ['maxItems', 'upper'],
  ['minProperties', 'lower'],
  ['maxProperties', 'upper'],
] as const;

const at = (l: Located, key: string) => pointerChild(l.at, key);
/** The head's place when the head has the keyword, else the base's (a keyword removed). */
const placeOf = (b: Located, h: Located, key: string) => ((h.node as JsonObject)[key] !== undefined ? at(h, key) : at(b, key));

function diffKeywords(c: SchemaComparison, b: Located, h: Located, direction: Direction): void {
  const bs = b.node as JsonObject;
  const hs = h.node as JsonObject;
  diffAnnotations(c, b, h, direction);
  diffTypes(c, b, h, direction);
  diffEnums(c, b, h, direction);
  diffBound(c, b, h, direction, 'minimum', 'lower', lowerBound(bs), lowerBound(hs));
  diffBound(c, b, h, direction, 'maximum', 'upper', upperBound(bs), upperBound(hs));
  for (const [key, side] of COUNTS) {
    const bound = (s: JsonObject): Bound | undefined => (typeof s[key] === 'number' ? { value: s[key], exclusive: false } : undefined);
    diffBound(c, b, h, direction, key, side, bound(bs), bound(hs));
  }
  diffMultipleOf(c, b, h, direction);
  if ((bs.uniqueItems === true) !== (hs.uniqueItems === true)) {
    rangeMove(c, b, h, direction, 'uniqueItems', hs.uniqueItems === true ? 'narrower' : 'wider');
  }
  diffStringRule(c, b, h, direction, 'pattern');
  diffStringRule(c, b, h, direction, 'format');
  if (['properties', 'required', 'additionalProperties'].some((k) => k in bs || k in hs)) diffObject(c, b, h, direction);
  if ('items' in bs || 'items' in hs) diffSchemas(c, { node: bs.items ?? {}, at: at(b, 'items') }, { node: hs.items ?? {}, at: at(h, 'items') }, direction);
  for (const key of new Set([...Object.keys(bs), ...Object.keys(hs)])) {
    if (READ.has(key) || ANNOTATIONS.has(key) || key.startsWith('x-')) continue;
    if (canonical(c.base, bs[key]) !== canonical(c.head, hs[key])) {
      report(c, {
        policy: 'schema-changed',
        pointer: placeOf(b, h, key),
        base: bs[key],
        head: hs[key],
        message: `\`${key}\` changed: no rule reads it, so it is taken as breaking`,
      });
    }
  }
}

function diffAnnotations(c: SchemaComparison, b: Located, h: Located, direction: Direction): void {
  const bs = b.node as JsonObject;
  const hs = h.node as JsonObject;
  for (const key of ['title', 'description']) {
    if (bs[key] !== hs[key]) report(c, { policy: 'wording-changed', pointer: placeOf(b, h, key), base: bs[key], head: hs[key], message: `${key} reworded` });
  }
  for (const key of ['example', 'examples']) {
    if (JSON.stringify(bs[key]) !== JSON.stringify(hs[key])) report(c, { policy: 'example-changed', pointer: placeOf(b, h, key), message: `${key} changed` });
  }
  if (hs.deprecated === true && bs.deprecated !== true) report(c, { policy: 'deprecated', pointer: at(h, 'deprecated'), message: 'marked deprecated' });
  if (JSON.stringify(bs.default) !== JSON.stringify(hs.default)) {
    report(c, {
      policy: direction === 'request' ? 'request-default-changed' : 'reply-default-changed',
      pointer: placeOf(b, h, 'default'),
      base: bs.default,
      head: hs.default,
      message:
        direction === 'request'
          ? 'default changed: a buyer that leaves the value out now gets another behaviour'
          : 'default changed (an annotation in a reply)',
    });
  }
}

function diffTypes(c: SchemaComparison, b: Located, h: Located, direction: Direction): void {
  const bt = typeSet(b.node as JsonObject);
  const ht = typeSet(h.node as JsonObject);
  const headWithin = typesWithin(ht, bt);
  const baseWithin = typesWithin(bt, ht);
  if (headWithin && baseWithin) return;
  const move: Move = headWithin ? 'narrower' : baseWithin ? 'wider' : 'other';
  const show = (t: Set<string> | undefined) => (t === undefined ? 'any' : [...t].sort().join('|'));
  report(c, {
    policy: MOVES.type[direction][move],
    pointer: placeOf(b, h, 'type'),
    base: show(bt),
    head: show(ht),
    message: `type ${show(bt)} → ${show(ht)}`,
  });
}

function diffEnums(c: SchemaComparison, b: Located, h: Located, direction: Direction): void {
  const be = enumValues(b.node as JsonObject);
  const he = enumValues(h.node as JsonObject);
  if (be === undefined && he === undefined) return;
  const key = (values: unknown[]) => new Map(values.map((v) => [JSON.stringify(v), v]));
  const bk = be === undefined ? undefined : key(be);
  const hk = he === undefined ? undefined : key(he);
  const added = hk === undefined ? [] : [...hk].filter(([k]) => bk !== undefined && !bk.has(k)).map(([, v]) => v);
  const removed = bk === undefined ? [] : [...bk].filter(([k]) => hk !== undefined && !hk.has(k)).map(([, v]) => v);
  let move: Move | undefined;
  if (bk === undefined) move = 'narrower';
  else if (hk === undefined) move = 'wider';
  else if (added.length > 0 && removed.length > 0) move = 'other';
  else if (added.length > 0) move = 'wider';
  else if (removed.length > 0) move = 'narrower';
  if (move === undefined) return;
  const keyword = (h.node as JsonObject).enum !== undefined || (h.node as JsonObject).const !== undefined ? h : b;
  const words = [
    added.length > 0 ? `gains ${added.map((v) => JSON.stringify(v)).join(', ')}` : '',
    removed.length > 0 ? `loses ${removed.map((v) => JSON.stringify(v)).join(', ')}` : '',
  ].filter(Boolean);
  report(c, {
    policy: MOVES.enum[direction][move],
    pointer: FOLDED.get(keyword.node as JsonObject) ?? pointerChild(keyword.at, (keyword.node as JsonObject).enum !== undefined ? 'enum' : 'const'),
    base: be,
    head: he,
    message: bk === undefined ? 'values now limited to a list' : hk === undefined ? 'value list dropped' : `value list ${words.join(' and ')}`,
  });
}

function rangeMove(c: SchemaComparison, b: Located, h: Located, direction: Direction, key: string, move: Move): void {
  const bs = b.node as JsonObject;
  const hs = h.node as JsonObject;
  report(c, {
    policy: MOVES.range[direction][move],
    pointer: placeOf(b, h, key),
    base: bs[key],
    head: hs[key],
    message: `${key} ${JSON.stringify(bs[key])} → ${JSON.stringify(hs[key])}`,
  });
}

function diffBound(c: SchemaComparison, b: Located, h: Located, direction: Direction, key: string, side: 'lower' | 'upper', base?: Bound, head?: Bound): void {
  const move = compareBounds(side, head, base);
  if (move === 'same') return;
  // Point at the keyword that sets the bound: head's if it has one, else base's.
  const keys = key === 'minimum' ? [key, 'exclusiveMinimum'] : key === 'maximum' ? [key, 'exclusiveMaximum'] : [key];
  const shown = keys.find((k) => (h.node as JsonObject)[k] !== undefined) ?? keys.find((k) => (b.node as JsonObject)[k] !== undefined) ?? key;
  const show = (x?: Bound) => (x === undefined ? 'none' : `${x.exclusive ? (side === 'lower' ? '>' : '<') : side === 'lower' ? '≥' : '≤'} ${x.value}`);
  report(c, {
    policy: MOVES.range[direction][move],
    pointer: placeOf(b, h, shown),
    base: base?.value,
    head: head?.value,
    message: `${key} bound ${show(base)} → ${show(head)}`,
  });
}

function diffMultipleOf(c: SchemaComparison, b: Located, h: Located, direction: Direction): void {
  const bm = (b.node as JsonObject).multipleOf;
  const hm = (h.node as JsonObject).multipleOf;
  if (bm === hm) return;
  const divides = (x: unknown, y: unknown) => typeof x === 'number' && typeof y === 'number' && Number.isInteger(y / x);
  // Head's multiples are a subset of base's when base's step divides head's.
  const move: Move = typeof bm !== 'number' || divides(bm, hm) ? 'narrower' : typeof hm !== 'number' || divides(hm, bm) ? 'wider' : 'other';
  rangeMove(c, b, h, direction, 'multipleOf', move);
}

/** pattern and format: equal strings are equal; which change breaks depends on the direction. */
function diffStringRule(c: SchemaComparison, b: Located, h: Located, direction: Direction, key: 'pattern' | 'format'): void {
  const bv = (b.node as JsonObject)[key];
  const hv = (h.node as JsonObject)[key];
  if (bv === hv) return;
  const policies = {
    pattern: { request: ['request-pattern-changed', 'request-pattern-removed'], reply: ['reply-pattern-changed', 'reply-pattern-added'] },
    format: { request: ['request-format-changed', 'request-format-removed'], reply: ['reply-format-changed', 'reply-format-added'] },
  } as const satisfies Record<string, Record<Direction, readonly [OpenApiPolicy, OpenApiPolicy]>>;
  const [breaking, safe] = policies[key][direction];
  // A request loses nothing when a rule goes; a reply gives nothing new when one comes. Two
  // different patterns are not compared for inclusion (undecidable for JS regexes): breaking.
  const isSafe = direction === 'request' ? hv === undefined : bv === undefined;
  const what = bv === undefined ? 'added' : hv === undefined ? 'removed' : 'changed';
  report(c, {
    policy: isSafe ? safe : breaking,
    pointer: placeOf(b, h, key),
    base: bv,
    head: hv,
    message: `${key} ${what}${bv !== undefined && hv !== undefined ? `: ${String(bv)} → ${String(hv)}` : ''}`,
  });
}

function diffObject(c: SchemaComparison, b: Located, h: Located, direction: Direction): void {
  const bs = b.node as JsonObject;
  const hs = h.node as JsonObject;
  const bp = isObject(bs.properties) ? bs.properties : {};
  const hp = isObject(hs.properties) ? hs.properties : {};
  const br = new Set(Array.isArray(bs.required) ? (bs.required as string[]) : []);
  const hr = new Set(Array.isArray(hs.required) ? (hs.required as string[]) : []);
  const names = [...new Set([...Object.keys(bp), ...br, ...Object.keys(hp), ...hr])];
  for (const name of names) {
    const inBase = name in bp || br.has(name);
    const inHead = name in hp || hr.has(name);
    const bAt = name in bp ? propertyAt(bs, b.at, name) : at(b, 'required');
    const hAt = name in hp ? propertyAt(hs, h.at, name) : at(h, 'required');
    if (!inHead) {
      report(c, {
        policy: direction === 'request' ? 'request-field-removed' : 'reply-field-removed',
        pointer: bAt,
        base: name,
        message:
          direction === 'request'
            ? `request field \`${name}\` removed: a buyer that sends it is refused or ignored`
            : `reply field \`${name}\` removed: a buyer that reads it finds nothing`,
      });
      continue;
    }
    if (!inBase) {
      const required = hr.has(name);
      const policy: OpenApiPolicy = direction === 'request' ? (required ? 'request-field-newly-required' : 'request-field-added') : 'reply-field-added';
      report(c, { policy, pointer: hAt, head: name, message: `${direction} field \`${name}\` added${required ? ' (required)' : ' (optional)'}` });
      continue;
    }
    if (name in bp || name in hp) diffSchemas(c, { node: bp[name] ?? {}, at: bAt }, { node: hp[name] ?? {}, at: hAt }, direction);
    if (br.has(name) && !hr.has(name)) {
      report(c, {
        policy: direction === 'request' ? 'request-field-made-optional' : 'reply-field-made-optional',
        pointer: hAt,
        head: name,
        message:
          direction === 'request'
            ? `request field \`${name}\` no longer required`
            : `reply field \`${name}\` no longer required: a buyer that reads it may find nothing`,
      });
    }
    if (!br.has(name) && hr.has(name)) {
      report(c, {
        policy: direction === 'request' ? 'request-field-newly-required' : 'reply-field-newly-required',
        pointer: hAt,
        head: name,
        message: `${direction} field \`${name}\` now required`,
      });
    }
  }
  diffAdditional(c, b, h, direction);
}

function diffAdditional(c: SchemaComparison, b: Located, h: Located, direction: Direction): void {
  const bv = (b.node as JsonObject).additionalProperties;
  const hv = (h.node as JsonObject).additionalProperties;
  const open = (v: unknown) => v === undefined || v === true;
  if (isObject(bv) && isObject(hv))
    return diffSchemas(c, { node: bv, at: at(b, 'additionalProperties') }, { node: hv, at: at(h, 'additionalProperties') }, direction);
  if (open(bv) && open(hv)) return;
  if (canonical(c.base, bv) === canonical(c.head, hv)) return;
  const closed = hv === false || (open(bv) && isObject(hv));
  const policy: OpenApiPolicy =
    direction === 'reply' ? 'reply-additional-properties-changed' : closed ? 'request-additional-properties-closed' : 'request-additional-properties-opened';
  report(c, {
    policy,
    pointer: placeOf(b, h, 'additionalProperties'),
    base: bv,
    head: hv,
    message: `additionalProperties ${JSON.stringify(bv ?? true)} → ${JSON.stringify(hv ?? true)}`,
  });
}
