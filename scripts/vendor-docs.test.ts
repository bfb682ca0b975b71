import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packagePath } from '../shared/package-root';
import { docBlock, parseDocBlocks } from '../shared/testing/doc-blocks';
import { shellCommands } from '../cli/testing/shell-words';
import { parseExploreOptions } from '../cli/explore-options';
import { parseLoadOptions } from '../cli/load-options';
import { RULES } from '../contracts/reply-rules/violation';
import { checkStateMap } from '../verification/state-map';
import { COMMANDS_PAGE, STATE_MAP_PAGE, slug } from './vendor-reference-docs';

// The seller vendor's pages (docs/vendor/) ship inside the toolkit package: every link must
// resolve there too, every code block is either run by a test or says it is an illustration,
// and what a block shows must be what the toolkit accepts.

const DIR = 'docs/vendor';
const pages = (function walk(dir: string): string[] {
  return readdirSync(packagePath(dir), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? walk(join(dir, entry.name)) : entry.name.endsWith('.md') ? [join(dir, entry.name)] : [],
  );
})(DIR);
const text = (page: string) => readFileSync(packagePath(page), 'utf8');

/** What the toolkit package ships besides these pages, as paths from the repository root. */
const SHIPPED = [
  /^docs\/vendor\//,
  /^mock-seller\/README\.md$/,
  /^contracts\/json-schema\/[^/]+$/,
  /^contracts\/pacts\/federated-gateway-seller-system\.json$/,
  /^fixtures\/state-maps\/[^/]+$/,
  /^fixtures\/scenarios\/default\.json$/,
  /^contracts\/openapi\/[^/]+$/,
  /^CHANGELOG\.md$/,
  /^LICENSE$/,
];

/** A page's prose: fenced blocks and inline code left out, so a link shown as code is not followed. */
function prose(markdown: string): string {
  return markdown.replace(/^([ \t]*)(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1\2[ \t]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** Heading anchors of a page, as GitHub makes them (a repeated heading gets -1, -2, …). */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const found = new Set<string>();
  for (const match of prose(markdown.replace(/^#+ .*$/gm, (h) => h.replace(/`/g, ''))).matchAll(/^#{1,6} (.+)$/gm)) {
    const base = slug(match[1]);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    found.add(n === 0 ? base : `${base}-${n}`);
  }
  return found;
}

/** Every relative link of a page: its target path from the repository root and its anchor. */
function links(page: string): { target: string; path: string; anchor?: string }[] {
  return [...prose(text(page)).matchAll(/!?\[[^\]]*\]\(([^)\s]+)\)/g)]
    .map((m) => m[1])
    .filter((target) => !/^[a-z]+:/i.test(target))
    .map((target) => {
      const [file, anchor] = target.split('#');
      return { target, path: file === '' ? page : normalize(join(dirname(page), file)), anchor };
    });
}

describe("the seller vendor's pages", () => {
  it('are found', () => {
    expect(pages).toEqual(expect.arrayContaining([join(DIR, 'README.md'), join(DIR, 'quick-start.md'), COMMANDS_PAGE]));
  });

  it('link only to files the toolkit package ships, and to anchors that exist', () => {
    const wrong: string[] = [];
    for (const page of pages) {
      for (const link of links(page)) {
        const where = `${page}: ${link.target}`;
        if (link.path.startsWith('..') || !SHIPPED.some((shipped) => shipped.test(link.path)))
          wrong.push(`${where} (not shipped in the package)`);
        else if (!existsSync(packagePath(link.path))) wrong.push(`${where} (no such file)`);
        else if (link.anchor !== undefined && !anchors(text(link.path)).has(link.anchor))
          wrong.push(`${where} (no such heading in ${link.path})`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('would see a link that leaves the package or names a missing heading', () => {
    expect(anchors('# A `verify --explore` run\n## Keys\n## Keys\n')).toEqual(
      new Set(['a-verify---explore-run', 'keys', 'keys-1']),
    );
    expect(prose('see [x](a.md) and `[y](b.md)`\n```md illustration\n[z](c.md)\n```\n')).not.toContain('b.md');
    expect(SHIPPED.some((shipped) => shipped.test(normalize(join(DIR, '../../verification/state-map.ts'))))).toBe(
      false,
    );
  });

  it('mark every code block as run by a test (id=…) or as an illustration, each id once', () => {
    const blocks = pages.flatMap((page) => parseDocBlocks(text(page), page));
    expect(blocks.filter((b) => b.id === undefined && !b.illustration).map((b) => `${b.file}:${b.line}`)).toEqual([]);
    const ids = blocks.flatMap((b) => (b.id === undefined ? [] : [b.id]));
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it('name each block id in a test that reads it (the generated pages: their generator)', () => {
    const tests = (function walk(dir: string): string[] {
      return readdirSync(packagePath(dir), { withFileTypes: true }).flatMap((entry) =>
        entry.name === 'node_modules' || entry.name.startsWith('.')
          ? []
          : entry.isDirectory()
            ? walk(join(dir, entry.name))
            : entry.name.endsWith('.test.ts')
              ? [readFileSync(packagePath(dir, entry.name), 'utf8')]
              : [],
      );
    })('.').join('\n');
    const unread = pages
      .filter((page) => page !== COMMANDS_PAGE && page !== STATE_MAP_PAGE)
      .flatMap((page) => parseDocBlocks(text(page), page))
      .filter((b) => b.id !== undefined && !tests.includes(`'${b.id}'`))
      .map((b) => `${b.file}: id=${b.id}`);
    expect(unread).toEqual([]);
  });

  it('say nothing private: no issue numbers, no team jargon (the command reference quotes the CLI)', () => {
    const wrong = pages
      .filter((page) => page !== COMMANDS_PAGE)
      .flatMap((page) =>
        [...text(page).matchAll(/\bissue #?\d+|\b(?:face|fused|marks|words)\b/gi)].map((m) => `${page}: ${m[0]}`),
      );
    expect(wrong).toEqual([]);
  });

  it('list every reply rule with its meaning', () => {
    const page = text(join(DIR, 'reports.md'));
    for (const rule of Object.keys(RULES)) expect(page, rule).toMatch(new RegExp(`^\\| \`${rule}\` \\| .+ \\|$`, 'm'));
    expect(page).toContain('| `reply.schema` |');
  });

  it('show state maps the kit accepts', () => {
    for (const [page, id] of [
      ['state-maps.md', 'state-map-example'],
      ['explore.md', 'explore-state-map'],
    ]) {
      const block = docBlock(join(DIR, page), id);
      expect(() => checkStateMap(JSON.parse(block.text), `${page} ${id}`)).not.toThrow();
    }
  });

  it('show explore and load commands whose flags the commands accept', () => {
    const argv = (page: string, id: string) => {
      const [words, ...more] = shellCommands(docBlock(join(DIR, page), id).text);
      expect(more).toEqual([]);
      expect(words.slice(0, 3)).toEqual(['npx', 'federated-gateway', 'verify']);
      return words.slice(3);
    };
    expect(parseExploreOptions(argv('explore.md', 'explore-command'))).toMatchObject({ runs: 1000, seed: 42 });
    expect(parseLoadOptions(argv('load.md', 'load-command'))).toMatchObject({ timeoutMs: 5000 });
  });
});
