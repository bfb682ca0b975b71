import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { packagePath } from '../shared/package-root';
import { docBlock } from '../shared/testing/doc-blocks';
import { PROVIDER_STATE_CATALOGUE } from '../contracts/pact/provider-states';
import { StateMapFile } from '../verification/states/state-map';
import {
  COMMANDS_PAGE,
  HELP_PAGES,
  helpText,
  keyRows,
  renderPages,
  STATE_MAP_MEANINGS,
  STATE_MAP_PAGE,
} from './vendor-reference-docs';

describe("the vendor's reference pages", () => {
  it('are what the generator writes (npm run docs:vendor-reference rewrites them)', async () => {
    for (const [page, text] of Object.entries(await renderPages()))
      expect(readFileSync(packagePath(page), 'utf8'), `${page}: run npm run docs:vendor-reference`).toBe(text);
  });

  it("show each command's --help as the command prints it", async () => {
    for (const page of HELP_PAGES) expect(docBlock(COMMANDS_PAGE, page.id).text).toBe(await helpText(page.argv));
    // A command added to the CLI is added to the page.
    const listed = (await helpText(['--help'])).match(/^ {2}([a-z-]+) /gm)!.map((line) => line.trim());
    expect(listed.filter((name) => !HELP_PAGES.some((page) => page.argv[0] === name))).toEqual([]);
  });

  it("give every key of the state map's schema a meaning, and every provider state a section", () => {
    expect(
      keyRows(StateMapFile).filter((row) => (STATE_MAP_MEANINGS[row.path] ?? row.description) === undefined),
    ).toEqual([]);
    const page = readFileSync(packagePath(STATE_MAP_PAGE), 'utf8');
    for (const name of Object.keys(PROVIDER_STATE_CATALOGUE)) expect(page).toContain(`### \`${name}\``);
    expect(page).toContain('| `explore.parts[].related[].kind` | "alternate" or "superseded" or "equivalent" | yes |');
  });
});
