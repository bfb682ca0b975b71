// What one comparison of two schemas carries (both documents, where findings go, the pairs of
// nodes being compared now) and the table of which policy a move of the admitted values falls
// under in each direction.
import type { Direction, OpenApiPolicy } from './openapi-compat-policy';
import type { FindingSink } from './openapi-finding';
import { pointerChild, type JsonObject, type Located } from './openapi-refs';

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
export type Move = 'narrower' | 'wider' | 'other';

// One policy per direction and move: what breaks a writer is safe for a reader and back.
export const MOVES = {
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

export const at = (l: Located, key: string) => pointerChild(l.at, key);
/** The head's place when the head has the keyword, else the base's (a keyword removed). */
export const placeOf = (b: Located, h: Located, key: string) =>
  (h.node as JsonObject)[key] !== undefined ? at(h, key) : at(b, key);
