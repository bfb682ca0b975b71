// A documented shell block's commands as the words sh would pass, so a test can run a page's
// `npx federated-gateway …` lines in-process exactly as a reader types them. Quotes, backslashes,
// line continuations and comments as sh reads them; no variables, globs or pipes.

/** One command line's words (`#` starts a comment outside a word). */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === ' ' || c === '\t') {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (c === "'" || c === '"') {
      const end = line.indexOf(c, i + 1);
      if (end === -1) throw new Error(`unclosed quote in: ${line}`);
      word = (word ?? '') + line.slice(i + 1, end);
      i = end;
    } else if (c === '\\') word = (word ?? '') + line[++i];
    else if (c === '#' && word === undefined) break;
    else word = (word ?? '') + c;
  }
  if (word !== undefined) words.push(word);
  return words;
}

/** Every command of a block, continuation lines joined; blank and comment-only lines left out. */
export function shellCommands(block: string): string[][] {
  return block
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map(shellWords)
    .filter((words) => words.length > 0);
}
