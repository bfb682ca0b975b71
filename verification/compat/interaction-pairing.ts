import type { PactInteraction } from '../../contracts/pact/pact-file';

// Which head interaction is which base interaction. The description is the key Pact itself uses;
// an interaction reworded with everything else equal is still the same one (wording, safe); and
// one whose provider states (names and parameters) are unique on both sides is the same
// interaction reworded and changed. What stays unpaired was removed or added.

export interface InteractionPairs {
  pairs: { base: PactInteraction; head: PactInteraction }[];
  removed: PactInteraction[];
  added: PactInteraction[];
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'undefined';
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  return `{${entries
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`)
    .join(',')}}`;
}

const withoutDescription = (i: PactInteraction) => canonical({ ...i, description: undefined });
const statesOf = (i: PactInteraction) => canonical(i.providerStates ?? []);

/** Pairs what is left of `base` and `head` whose `key` is unique on both sides. */
function pairByUniqueKey(
  base: PactInteraction[],
  head: PactInteraction[],
  key: (i: PactInteraction) => string,
  pairs: InteractionPairs['pairs'],
) {
  const count = (list: PactInteraction[]) => {
    const counts = new Map<string, number>();
    for (const i of list) counts.set(key(i), (counts.get(key(i)) ?? 0) + 1);
    return counts;
  };
  const baseCounts = count(base);
  const headCounts = count(head);
  const headByKey = new Map(head.map((i) => [key(i), i]));
  const left = { base: [] as PactInteraction[], head: new Set(head) };
  for (const b of base) {
    const k = key(b);
    const h = headByKey.get(k);
    if (h !== undefined && baseCounts.get(k) === 1 && headCounts.get(k) === 1) {
      pairs.push({ base: b, head: h });
      left.head.delete(h);
    } else left.base.push(b);
  }
  return { base: left.base, head: [...left.head] };
}

export function pairInteractions(base: readonly PactInteraction[], head: readonly PactInteraction[]): InteractionPairs {
  const pairs: InteractionPairs['pairs'] = [];
  let left = pairByUniqueKey([...base], [...head], (i) => i.description, pairs);
  left = pairByUniqueKey(left.base, left.head, withoutDescription, pairs);
  left = pairByUniqueKey(left.base, left.head, statesOf, pairs);
  return { pairs, removed: left.base, added: left.head };
}
