import { readFileSync, writeFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from './main';
import { runInProcess } from './testing/run-in-process';
import { shellCommands } from './testing/shell-words';
import { CONTRACT_VERSION } from '../contracts/contract-version';
import { packagePath } from '../shared/package-root';
import { docBlock } from '../shared/testing/doc-blocks';
import { useTemporaryDirectory } from '../shared/testing/temporary-directory';
import {
  fillTemplateForSpecFaithfulSeller,
  startSpecFaithfulSeller,
  type RunningPythonSeller,
} from '../fixtures/sellers/spec-faithful-seller';

// The quick start, followed as a vendor follows it: its blocks run as the page shows them, in
// this process (the CLI's commands are functions of argv and io), against a seller written from
// the specification alone. packages/installed-packages.test.ts runs the same blocks through npx
// from the installed tarball.

const PAGE = 'docs/vendor/quick-start.md';
/** The endpoint the page's verify block names; the test puts the running seller's in its place. */
const PAGE_SELLER_URL = 'http://127.0.0.1:8080/seller';

const dir = useTemporaryDirectory('quick-start');
let seller: RunningPythonSeller;
beforeAll(async () => {
  seller = await startSpecFaithfulSeller();
});
afterAll(() => seller?.close());

/**
 * Runs a block's `npx federated-gateway …` lines through the CLI's main, in the test's folder:
 * relative file names resolve there, `> file` writes stdout there. Returns the last line's run.
 */
async function runBlock(id: string, replace: (text: string) => string = (text) => text) {
  let last: { code: number; stdout: string; stderr: string } | undefined;
  for (const words of shellCommands(replace(docBlock(PAGE, id).text))) {
    expect(words.slice(0, 2), words.join(' ')).toEqual(['npx', 'federated-gateway']);
    const redirect = words.indexOf('>');
    const argv = (redirect === -1 ? words.slice(2) : words.slice(2, redirect)).map((word) =>
      /^[\w.-]+\.json$/.test(word) && !isAbsolute(word) ? join(dir.path, word) : word,
    );
    last = await runInProcess(main, argv);
    if (redirect !== -1) writeFileSync(join(dir.path, words[redirect + 1]), last.stdout);
  }
  return last!;
}

/**
 * Whether `actual` shows the page's output: its lines in order, a `…` line standing for any
 * lines, and milliseconds as any number.
 */
function showsOutput(actual: string, shown: string): void {
  const ms = (text: string) => text.replace(/\d+ ms\b/g, 'N ms');
  const lines = ms(actual).split('\n');
  let at = 0;
  for (const part of ms(shown).trimEnd().split(/^…$/m)) {
    const expected = part.split('\n').filter((line, i, all) => line !== '' || (i > 0 && i < all.length - 1));
    const start = lines.findIndex((_, i) => i >= at && expected.every((line, j) => lines[i + j] === line));
    expect(start, `the output shows:\n${expected.join('\n')}\n\nbut printed:\n${actual}`).toBeGreaterThanOrEqual(0);
    at = start + expected.length;
  }
}

describe('the quick start', () => {
  it('installs the tarball the gateway team makes with npm pack', () => {
    const { version } = JSON.parse(readFileSync(packagePath('packages/toolkit/package.json'), 'utf8')) as {
      version: string;
    };
    expect(docBlock(PAGE, 'quick-start-install').text).toBe(`npm install ./federated-gateway-toolkit-${version}.tgz\n`);
    expect(readFileSync(packagePath(PAGE), 'utf8')).toContain('`npm pack -w packages/toolkit`');
  });

  it('prints the versions it shows', async () => {
    const run = await runBlock('quick-start-version');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(docBlock(PAGE, 'quick-start-version-output').text);
    expect(run.stdout).toContain(`(contract ${CONTRACT_VERSION})`);
  });

  it('takes a seller written from the specification from the template to PASSED', async () => {
    const template = await runBlock('quick-start-template');
    expect(template.code).toBe(0);
    const written = JSON.parse(readFileSync(join(dir.path, 'my-states.json'), 'utf8')) as Record<string, unknown>;
    expect(written.$schema).toBe(
      './node_modules/@federated-gateway/toolkit/contracts/json-schema/state-map.schema.json',
    );
    const filled = fillTemplateForSpecFaithfulSeller(written);
    expect(JSON.stringify({ ...filled, $comment: '' })).not.toContain('<your ');
    writeFileSync(join(dir.path, 'my-states.json'), JSON.stringify(filled, null, 2));

    const run = await runBlock('quick-start-verify', (text) => text.replace(PAGE_SELLER_URL, seller.url));
    expect(run.code, run.stderr).toBe(0);
    showsOutput(run.stdout.replaceAll(seller.url, PAGE_SELLER_URL), docBlock(PAGE, 'quick-start-passed').text);
  });
});
