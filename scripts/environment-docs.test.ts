import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { environmentRows } from '../shared/environment';
import { ENVIRONMENT_SECTIONS, README, renderReadme } from './environment-docs';

describe("the README's configuration tables", () => {
  it('are the ones the environment schemas render (npm run docs:environment rewrites them)', () => {
    const readme = readFileSync(README, 'utf8');
    expect(renderReadme(readme)).toBe(readme);
  });

  it('list every variable once across the sections', () => {
    const names = Object.values(ENVIRONMENT_SECTIONS).flatMap((schema) =>
      environmentRows(schema).map((row) => row.name),
    );
    expect(names.length).toBeGreaterThan(40);
    expect(names.filter((name, i) => names.indexOf(name) !== i)).toEqual([]);
    const readme = readFileSync(README, 'utf8');
    for (const name of names) expect(readme, name).toContain(`| \`${name}\` |`);
  });
});
