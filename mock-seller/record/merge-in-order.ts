// Learning an ordered list from replies that each show part of it: a seller answering
// invoices Oct–Nov, then Aug–Nov, shows [C, D] then [A, B, C, D]; appending new ones would
// give [C, D, A, B] and a replay answering the second request in the wrong order. Each new
// element goes right after the one the reply showed before it.

export function mergeInOrder<T>(list: T[], seen: readonly T[], keyOf: (item: T) => string): T[] {
  let after = -1;
  for (const item of seen) {
    const at = list.findIndex((known) => keyOf(known) === keyOf(item));
    if (at >= 0) {
      after = Math.max(after, at);
      continue;
    }
    list.splice(after + 1, 0, item);
    after += 1;
  }
  return list;
}
