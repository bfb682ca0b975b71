// The rules on a schema's values, read in one direction: wording, type, enum, numeric and
// length bounds, multipleOf, uniqueItems, pattern and format. Objects and arrays are compared
// elsewhere (openapi-object-diff.ts, openapi-schema-diff.ts).
import type { Direction, OpenApiPolicy } from './openapi-compat-policy';
import { report } from './openapi-finding';
import { pointerChild, type JsonObject, type Located } from './openapi-refs';
import { at, MOVES, placeOf, type Move, type SchemaComparison } from './openapi-schema-comparison';
import {
  compareBounds,
  enumValues,
  lowerBound,
  typeSet,
  typesWithin,
  upperBound,
  type Bound,
} from './openapi-schema-shape';

/** Value lists folded from unions, with the pointer of their list. */
const FOLDED = new WeakMap<object, string>();

/** Marks a value list folded from a union: its changes point at the union. */
export const markFolded = (node: object, unionAt: string) => FOLDED.set(node, unionAt);

const COUNTS = [
  ['minLength', 'lower'],
  ['maxLength', 'upper'],
  ['minItems', 'lower'],
  ['maxItems', 'upper'],
  ['minProperties', 'lower'],
  ['maxProperties', 'upper'],
] as const;

export function diffValueRules(c: SchemaComparison, b: Located, h: Located, direction: Direction): void {
  const bs = b.node as JsonObject;
  const hs = h.node as JsonObject;
  diffAnnotations(c, b, h, direction);
  diffTypes(c, b, h, direction);
  diffEnums(c, b, h, direction);
  diffBound(c, b, h, direction, 'minimum', 'lower', lowerBound(bs), lowerBound(hs));
  diffBound(c, b, h, direction, 'maximum', 'upper', upperBound(bs), upperBound(hs));
  for (const [key, side] of COUNTS) {
    const bound = (s: JsonObject): Bound | undefined =>
      typeof s[key] === 'number' ? { value: s[key], exclusive: false } : undefined;
    diffBound(c, b, h, direction, key, side, bound(bs), bound(hs));
  }
  diffMultipleOf(c, b, h, direction);
  if ((bs.uniqueItems === true) !== (hs.uniqueItems === true)) {
    rangeMove(c, b, h, direction, 'uniqueItems', hs.uniqueItems === true ? 'narrower' : 'wider');
  }
  diffStringRule(c, b, h, direction, 'pattern');
  diffStringRule(c, b, h, direction, 'format');
}

function diffAnnotations(c: SchemaComparison, b: Located, h: Located, direction: Direction): void {
  const bs = b.node as JsonObject;
  const hs = h.node as JsonObject;
  for (const key of ['title', 'description']) {
    if (bs[key] !== hs[key])
      report(c, {
        policy: 'wording-changed',
        pointer: placeOf(b, h, key),
        base: bs[key],
        head: hs[key],
        message: `${key} reworded`,
      });
  }
  for (const key of ['example', 'examples']) {
    if (JSON.stringify(bs[key]) !== JSON.stringify(hs[key]))
      report(c, { policy: 'example-changed', pointer: placeOf(b, h, key), message: `${key} changed` });
  }
  if (hs.deprecated === true && bs.deprecated !== true)
    report(c, { policy: 'deprecated', pointer: at(h, 'deprecated'), message: 'marked deprecated' });
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
    pointer:
      FOLDED.get(keyword.node as JsonObject) ??
      pointerChild(keyword.at, (keyword.node as JsonObject).enum !== undefined ? 'enum' : 'const'),
    base: be,
    head: he,
    message:
      bk === undefined
        ? 'values now limited to a list'
        : hk === undefined
          ? 'value list dropped'
          : `value list ${words.join(' and ')}`,
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

function diffBound(
  c: SchemaComparison,
  b: Located,
  h: Located,
  direction: Direction,
  key: string,
  side: 'lower' | 'upper',
  base?: Bound,
  head?: Bound,
): void {
  const move = compareBounds(side, head, base);
  if (move === 'same') return;
  // Point at the keyword that sets the bound: head's if it has one, else base's.
  const keys = key === 'minimum' ? [key, 'exclusiveMinimum'] : key === 'maximum' ? [key, 'exclusiveMaximum'] : [key];
  const shown =
    keys.find((k) => (h.node as JsonObject)[k] !== undefined) ??
    keys.find((k) => (b.node as JsonObject)[k] !== undefined) ??
    key;
  const show = (x?: Bound) =>
    x === undefined
      ? 'none'
      : `${x.exclusive ? (side === 'lower' ? '>' : '<') : side === 'lower' ? '≥' : '≤'} ${x.value}`;
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
  const move: Move =
    typeof bm !== 'number' || divides(bm, hm)
      ? 'narrower'
      : typeof hm !== 'number' || divides(hm, bm)
        ? 'wider'
        : 'other';
  rangeMove(c, b, h, direction, 'multipleOf', move);
}

/** pattern and format: equal strings are equal; which change breaks depends on the direction. */
function diffStringRule(
  c: SchemaComparison,
  b: Located,
  h: Located,
  direction: Direction,
  key: 'pattern' | 'format',
): void {
  const bv = (b.node as JsonObject)[key];
  const hv = (h.node as JsonObject)[key];
  if (bv === hv) return;
  const policies = {
    pattern: {
      request: ['request-pattern-changed', 'request-pattern-removed'],
      reply: ['reply-pattern-changed', 'reply-pattern-added'],
    },
    format: {
      request: ['request-format-changed', 'request-format-removed'],
      reply: ['reply-format-changed', 'reply-format-added'],
    },
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
