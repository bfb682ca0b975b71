import { readFileSync } from 'node:fs';
import { packagePath } from '../package-root';

// The fenced code blocks of a Markdown page, so a test can run a block as the page shows it
// (and compare the page's output block with what it printed). A block's info string is its
// language, then words: `id=<name>` names a block a test runs, `illustration` one no test runs.

export interface DocBlock {
  /** The page, relative to the repository root. */
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  lang: string;
  /** `id=<name>`, if the block has one. */
  id?: string;
  illustration: boolean;
  /** The block's text, without its fences, ending in a newline. */
  text: string;
}

const FENCE = /^(\s*)(`{3,}|~{3,})(.*)$/;

/** Every fenced block of a Markdown text, in order. */
export function parseDocBlocks(markdown: string, file: string): DocBlock[] {
  const blocks: DocBlock[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]);
    if (open === null) continue;
    const [, indent, fence, info] = open;
    const words = info.trim().split(/\s+/).filter(Boolean);
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const close = FENCE.exec(lines[j]);
      if (close !== null && close[2].startsWith(fence[0]) && close[2].length >= fence.length && close[3].trim() === '')
        break;
      body.push(lines[j].startsWith(indent) ? lines[j].slice(indent.length) : lines[j]);
    }
    const id = words.find((w) => w.startsWith('id='))?.slice(3);
    blocks.push({
      file,
      line: i + 1,
      lang: words[0] ?? '',
      ...(id !== undefined && { id }),
      illustration: words.includes('illustration'),
      text: body.length === 0 ? '' : `${body.join('\n')}\n`,
    });
    i = j;
  }
  return blocks;
}

/** The block named `id` on a page of the repository (a path from its root); throws when there is none. */
export function docBlock(file: string, id: string): DocBlock {
  const found = parseDocBlocks(readFileSync(packagePath(file), 'utf8'), file).filter((b) => b.id === id);
  if (found.length !== 1) throw new Error(`${file}: ${found.length} blocks with id=${id}, expected 1`);
  return found[0];
}
