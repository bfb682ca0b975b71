import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { packagePath } from '../shared/package-root';

// The README's layout table is where a newcomer looks first: it names every folder we keep.

// Folders made at run time or by tools are not ours to list.
const MADE = new Set(['node_modules', 'var', 'dist', 'test-output', '.git']);
const folders = (...path: string[]) =>
  readdirSync(packagePath(...path), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !MADE.has(entry.name))
    .map((entry) => entry.name);
const layout = (() => {
  const readme = readFileSync(packagePath('README.md'), 'utf8');
  return readme.slice(readme.indexOf('## Layout'), readme.indexOf('## Commands'));
})();

describe("the README's layout table", () => {
  it('names every top-level folder', () => {
    const top = folders();
    expect(top.filter((folder) => !layout.includes(`\`${folder}/\``))).toEqual([]);
  });

  it('names every folder inside contracts/, gateway/ and mock-seller/', () => {
    const inner = ['contracts', 'gateway', 'mock-seller'].flatMap((parent) => folders(parent));
    expect(inner.length).toBeGreaterThan(20);
    expect(inner.filter((folder) => !layout.includes(`\`${folder}/\``))).toEqual([]);
  });
});
