// anyOf/oneOf compared as sets of branches: reordered branches are no change, an equal branch
// (after references are followed) pairs with its twin, a changed branch pairs with its likeliest
// counterpart (same type, same title, shared properties) and is compared inside, and what is
// left is a branch added or removed: added widens, removed narrows.
import type { Direction } from './openapi-compat-policy';
import { report, type FindingSink } from './openapi-finding';
import { follow, isObject, type JsonObject, type Located } from './openapi-refs';
import { asObjectSchema, canonical, typeSet } from './openapi-schema-shape';

export interface UnionComparison extends FindingSink {
  base: unknown;
  head: unknown;
}

/** How alike two branches look; 0 means they are not the same branch changed. */
function likeness(b: JsonObject, h: JsonObject): number {
  const bt = typeSet(b);
  const ht = typeSet(h);
  let score = 0;
  if (bt !== undefined && ht !== undefined) {
    const shared = [...ht].filter(
      (t) => bt.has(t) || (t === 'integer' && bt.has('number')) || (t === 'number' && bt.has('integer')),
    );
    if (shared.length === 0) return 0;
    score += shared.length === bt.size && shared.length === ht.size ? 3 : 1;
  } else score += 1;
  if ('const' in b && 'const' in h && JSON.stringify(b.const) !== JSON.stringify(h.const)) return 0;
  if (typeof b.title === 'string' && b.title === h.title) score += 3;
  const bp = Object.keys(isObject(b.properties) ? b.properties : {});
  const hp = new Set(Object.keys(isObject(h.properties) ? h.properties : {}));
  const union = new Set([...bp, ...hp]).size;
  if (union > 0) score += (2 * bp.filter((p) => hp.has(p)).length) / union;
  return score;
}

export function diffUnion(
  c: UnionComparison,
  base: Located[],
  head: Located[],
  direction: Direction,
  diffBranch: (b: Located, h: Located) => void,
): void {
  const bl = base.map((l) => follow(c.base, l));
  const hl = head.map((l) => follow(c.head, l));
  const bText = bl.map((l) => canonical(c.base, l.node));
  const hText = hl.map((l) => canonical(c.head, l.node));
  const pairs: [number, number][] = [];
  const freeBase = new Set(bl.keys());
  const freeHead = new Set(hl.keys());
  for (const i of [...freeBase]) {
    const j = [...freeHead].find((k) => hText[k] === bText[i]);
    if (j === undefined) continue;
    pairs.push([i, j]);
    freeBase.delete(i);
    freeHead.delete(j);
  }
  const candidates = [...freeBase]
    .flatMap((i) =>
      [...freeHead].map((j) => ({ i, j, score: likeness(asObjectSchema(bl[i].node), asObjectSchema(hl[j].node)) })),
    )
    .filter((x) => x.score > 0)
    .sort((x, y) => y.score - x.score || x.i - y.i || x.j - y.j);
  for (const { i, j } of candidates) {
    if (!freeBase.has(i) || !freeHead.has(j)) continue;
    pairs.push([i, j]);
    freeBase.delete(i);
    freeHead.delete(j);
  }
  for (const [i, j] of pairs) diffBranch(base[i], head[j]);
  for (const i of freeBase) {
    report(c, {
      policy: direction === 'request' ? 'request-union-narrowed' : 'reply-union-narrowed',
      pointer: base[i].at,
      base: bl[i].node,
      message: `${direction} alternative removed${direction === 'request' ? ': a buyer that sends it is refused' : ''}`,
    });
  }
  for (const j of freeHead) {
    report(c, {
      policy: direction === 'request' ? 'request-union-widened' : 'reply-union-widened',
      pointer: head[j].at,
      head: hl[j].node,
      message: `${direction} alternative added${direction === 'reply' ? ': a buyer that handles every base alternative meets one it does not know' : ''}`,
    });
  }
}
