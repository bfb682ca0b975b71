// Picks the catalog word a misspelt query word most likely meant. Optimal string alignment
// distance (Levenshtein plus adjacent transpositions): "brkae" → "brake", "oli" → "oil" are one
// edit away, which trigram similarity alone scores too low to trust.

export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/** Edits tolerated for a word of this length: none below 3 letters, 1 up to 5, then 2. */
export const editsAllowed = (word: string) => (word.length < 3 ? 0 : word.length <= 5 ? 1 : 2);

/** The closest candidate within the edits allowed; ties go to the longer shared start, then alphabetical. */
export function closestWord(word: string, candidates: Iterable<string>): string | undefined {
  const allowed = editsAllowed(word);
  if (allowed === 0) return undefined;
  let best: { word: string; distance: number; prefix: number } | undefined;
  for (const candidate of candidates) {
    if (Math.abs(candidate.length - word.length) > allowed) continue;
    const distance = editDistance(word, candidate);
    if (distance > allowed) continue;
    let prefix = 0;
    while (prefix < word.length && word[prefix] === candidate[prefix]) prefix++;
    if (
      !best ||
      distance < best.distance ||
      (distance === best.distance && (prefix > best.prefix || (prefix === best.prefix && candidate < best.word)))
    ) {
      best = { word: candidate, distance, prefix };
    }
  }
  return best?.word;
}
