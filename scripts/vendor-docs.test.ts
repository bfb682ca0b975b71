import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packagePath } from '../shared/package-root';
import { docBlock } from '../shared/testing/doc-blocks';
import { shellCommands } from '../cli/testing/shell-words';
import { parseExploreOptions } from '../cli/explore-options';
import { parseLoadOptions } from '../cli/load-options';
import { RULES } from '../contracts/reply-rules/violation';
import { checkStateMap } from '../verification/states/state-map';
import { COMMANDS_PAGE } from './vendor-reference-docs';

// The seller vendor's pages (docs/vendor/): what a block shows is what the toolkit accepts, and
// they say nothing private. Links and blocks are checked for every page by docs.test.ts, and in
// the packed toolkit by packages/installed-packages.test.ts.

const DIR = 'docs/vendor';
const pages = (function walk(dir: string): string[] {
  return readdirSync(packagePath(dir), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? walk(join(dir, entry.name)) : entry.name.endsWith('.md') ? [join(dir, entry.name)] : [],
  );
})(DIR);
const text = (page: string) => readFileSync(packagePath(page), 'utf8');

describe("the seller vendor's pages", () => {
  it('are found', () => {
    expect(pages).toEqual(expect.arrayContaining([join(DIR, 'README.md'), join(DIR, 'quick-start.md'), COMMANDS_PAGE]));
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
    const argv = (page: string, id: string, command: string) => {
      const [words, ...more] = shellCommands(docBlock(join(DIR, page), id).text);
      expect(more).toEqual([]);
      expect(words.slice(0, 3)).toEqual(['npx', 'federated-gateway', command]);
      return words.slice(3);
    };
    expect(parseExploreOptions(argv('explore.md', 'explore-command', 'explore'))).toMatchObject({
      runs: 1000,
      seed: 42,
    });
    expect(parseLoadOptions(argv('load.md', 'load-command', 'load'))).toMatchObject({ timeoutMs: 5000 });
  });
});
