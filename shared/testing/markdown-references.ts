import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { parseDocBlocks } from './doc-blocks';

// What a Markdown page points at — relative links, their #anchors, and paths it names in code
// spans — checked against a tree of files: the repository for its docs, an installed package
// for the pages it ships. A reader who follows a link or looks for a named file finds it.

export interface DanglingReference {
  file: string;
  line: number;
  reference: string;
  why: string;
}

/** Lines that are inside fenced blocks: links and paths there are code, not references. */
function fencedLines(markdown: string): Set<number> {
  const lines = new Set<number>();
  const count = markdown.split('\n').length;
  for (const block of parseDocBlocks(markdown, '')) {
    const length = block.text === '' ? 0 : block.text.split('\n').length - 1;
    for (let l = block.line; l <= Math.min(block.line + length + 1, count); l++) lines.add(l);
  }
  return lines;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens; repeats get -1, -2… */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const fenced = fencedLines(markdown);
  markdown.split('\n').forEach((text, i) => {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(text);
    if (heading === null || fenced.has(i + 1)) return;
    const plain = heading[1]
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/<[^>]+>/g, '')
      .toLowerCase();
    const slug = plain.replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
    let anchor = slug;
    for (let n = 1; anchors.has(anchor); n++) anchor = `${slug}-${n}`;
    anchors.add(anchor);
  });
  for (const html of markdown.matchAll(/<a\s+(?:name|id)="([^"]+)"/g)) anchors.add(html[1]);
  return anchors;
}

/** Each line's text outside inline code spans and its code spans, for lines outside fenced blocks. */
function proseLines(markdown: string): { line: number; prose: string; spans: string[] }[] {
  const fenced = fencedLines(markdown);
  return markdown
    .split('\n')
    .map((text, i) => ({ line: i + 1, text }))
    .filter(({ line }) => !fenced.has(line))
    .map(({ line, text }) => ({
      line,
      prose: text.replace(/`[^`]*`/g, '``'),
      spans: [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1]),
    }));
}

/** A code span that names a file or folder of ours: slashes, no spaces, no URL, no glob or placeholder. */
export function looksLikePath(span: string): boolean {
  if (/[\s*<>{}$|"'=,;()[\]]/.test(span) || /^[a-z+]+:/i.test(span) || span.startsWith('/')) return false;
  if (span.startsWith('-') || span.startsWith('@') || span.startsWith('~')) return false;
  const parts = span.replace(/^\.\.?\//, '').split('/');
  if (parts.length < 2 && !/^\.\.?\//.test(span)) return false;
  // A file with an extension, or a folder written with its trailing slash.
  return /\.[a-z]{1,5}$/i.test(span) || span.endsWith('/');
}

export interface ReferenceCheck {
  /** The tree the references must land in (the repository root, an installed package's folder). */
  root: string;
  /**
   * Where a named path that is neither `./` nor `../` is looked for besides the page's own
   * folder: the tree's root (a repository path, a path inside the package).
   */
  namedFrom?: 'root' | 'page';
  /** Prefixes that name the tree itself as a vendor sees it, e.g. `node_modules/@federated-gateway/toolkit/`. */
  selfPrefixes?: string[];
  /** Check the paths named in code spans too (for a package: everything it names must ship). */
  namedPaths?: boolean;
  /** Paths the tool itself makes when it runs (a report folder): named, but not shipped. */
  madeAtRunTime?: string[];
}

/** Every relative link, anchor and (optionally) named path of the page at `file` (under `root`) that finds nothing. */
export function danglingReferences(file: string, check: ReferenceCheck): DanglingReference[] {
  const markdown = readFileSync(join(check.root, file), 'utf8');
  const found: DanglingReference[] = [];
  const here = dirname(join(check.root, file));
  const inTree = (path: string) => !relative(check.root, path).startsWith('..');
  for (const { line, prose, spans } of proseLines(markdown)) {
    for (const link of prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = link[1];
      if (/^[a-z+]+:/i.test(target) || target.startsWith('//')) continue;
      const [path, anchor] = target.split('#') as [string, string | undefined];
      const resolved = path === '' ? join(check.root, file) : normalize(join(here, decodeURIComponent(path)));
      const say = (why: string) => found.push({ file, line, reference: target, why });
      if (!inTree(resolved)) say('points outside the tree');
      else if (!existsSync(resolved)) say('no such file');
      else if (anchor !== undefined && anchor !== '' && resolved.endsWith('.md')) {
        if (!headingAnchors(readFileSync(resolved, 'utf8')).has(anchor)) say(`no heading #${anchor}`);
      }
    }
    if (check.namedPaths !== true) continue;
    for (const span of spans) {
      const self = (check.selfPrefixes ?? []).find((p) => span.startsWith(p));
      const path = self !== undefined ? span.slice(self.length) : span;
      if (self === undefined && !looksLikePath(span)) continue;
      if (path === '' || (check.madeAtRunTime ?? []).includes(path)) continue;
      const candidates = /^\.\.?\//.test(path)
        ? [normalize(join(here, path))]
        : [normalize(join(check.root, path)), normalize(join(here, path))];
      const exists = candidates.some(
        (c) => inTree(c) && existsSync(c) && (!path.endsWith('/') || statSync(c).isDirectory()),
      );
      if (!exists) found.push({ file, line, reference: span, why: 'names a path that is not there' });
    }
  }
  return found;
}

/** The same checks over plain text (a command's --help): the paths it names in quotes or backticks. */
export function danglingPathsInText(text: string, source: string, check: ReferenceCheck): DanglingReference[] {
  const found: DanglingReference[] = [];
  text.split('\n').forEach((content, i) => {
    for (const word of content.split(/[\s,;()'"`]+/)) {
      const self = (check.selfPrefixes ?? []).find((p) => word.startsWith(p));
      const trimmed = word.replace(/[.:]$/, '');
      if (self === undefined && !looksLikePath(trimmed)) continue;
      const path = self !== undefined ? trimmed.slice(self.length) : trimmed;
      if (path === '' || (check.madeAtRunTime ?? []).includes(path) || existsSync(join(check.root, path))) continue;
      found.push({ file: source, line: i + 1, reference: trimmed, why: 'names a path that is not there' });
    }
  });
  return found;
}
