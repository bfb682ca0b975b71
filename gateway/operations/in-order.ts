/** Whether `list` is already in the order `compare` gives (a merge of one member's reply usually is). */
export function isInOrder<T>(list: readonly T[], compare: (a: T, b: T) => number): boolean {
  for (let i = 1; i < list.length; i++) if (compare(list[i - 1], list[i]) > 0) return false;
  return true;
}

/**
 * Sorts `list` in place (stably) unless it is in order already: Array.prototype.sort copies the
 * list into a work area every time, a few KB of garbage a reply for lists that rarely need it.
 */
export function sortUnlessInOrder<T>(list: T[], compare: (a: T, b: T) => number): T[] {
  return isInOrder(list, compare) ? list : list.sort(compare);
}
