import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDocBlocks } from './doc-blocks';
import { danglingPathsInText, danglingReferences, headingAnchors, looksLikePath } from './markdown-references';
import { temporaryDirectory } from './temporary-directory';

describe('markdown references', () => {
  it("makes GitHub's anchors: lower case, punctuation dropped, code kept, repeats numbered", () => {
    const anchors = headingAnchors(
      '# The `states` server: one for all\n## Load\n## Load\n```sh\n# not a heading\n```\n',
    );
    expect([...anchors]).toEqual(['the-states-server-one-for-all', 'load', 'load-1']);
  });

  it('takes code spans with a slash and an extension (or a trailing slash) as paths, nothing else', () => {
    expect(
      ['docs/vendor/load.md', '../mock-seller/README.md', 'contracts/openapi/', './a.json'].map(looksLikePath),
    ).toEqual([true, true, true, true]);
    expect(
      ['/__admin/faults', 'http://x/y.json', 'npm run verify', 'a/b', 'item.id-echo', '<file>.json'].map(looksLikePath),
    ).toEqual([false, false, false, false, false, false]);
  });

  it('finds a missing file, a missing heading and a named path that is not there; not what is in a fenced block', () => {
    const root = temporaryDirectory('markdown-references');
    mkdirSync(join(root, 'docs'));
    writeFileSync(join(root, 'docs', 'b.md'), '# Here\n');
    writeFileSync(join(root, 'shipped.json'), '{}');
    writeFileSync(
      join(root, 'docs', 'a.md'),
      [
        '[ok](b.md#here) [gone](c.md) [no heading](b.md#there) [web](https://example.com/x.md)',
        'Reads `shipped.json` and `verification/states/state-map.ts`; writes `reports/`.',
        '```sh illustration',
        'cat [x](missing.md) `not/there.ts`',
        '```',
      ].join('\n'),
    );
    const found = danglingReferences('docs/a.md', { root, namedPaths: true, madeAtRunTime: ['reports/'] });
    expect(found.map((d) => [d.line, d.reference, d.why])).toEqual([
      [1, 'c.md', 'no such file'],
      [1, 'b.md#there', 'no heading #there'],
      [2, 'verification/states/state-map.ts', 'names a path that is not there'],
    ]);
    expect(danglingPathsInText('see docs/b.md and docs/c.md.', '--help', { root }).map((d) => d.reference)).toEqual([
      'docs/c.md',
    ]);
  });

  it('reads a block by its info string: language, id, illustration', () => {
    const [run, shown] = parseDocBlocks('```sh id=go\nnpm test\n```\n\n````text illustration\n```\n````\n', 'x.md');
    expect(run).toMatchObject({ lang: 'sh', id: 'go', illustration: false, text: 'npm test\n', line: 1 });
    expect(shown).toMatchObject({ lang: 'text', illustration: true, text: '```\n', line: 5 });
  });
});
