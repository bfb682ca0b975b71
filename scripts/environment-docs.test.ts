import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { environmentRows } from '../shared/environment';
import { ENVIRONMENT_PAGE, ENVIRONMENT_SECTIONS, renderEnvironmentPage } from './environment-docs';

describe("docs/reference/environment.md's configuration tables", () => {
  it('are the ones the environment schemas render (npm run docs:environment rewrites them)', () => {
    const page = readFileSync(ENVIRONMENT_PAGE, 'utf8');
    expect(renderEnvironmentPage(page)).toBe(page);
  });

  it('list every variable once across the sections', () => {
    const names = Object.values(ENVIRONMENT_SECTIONS).flatMap((schema) =>
      environmentRows(schema).map((row) => row.name),
    );
    expect(names.length).toBeGreaterThan(40);
    expect(names.filter((name, i) => names.indexOf(name) !== i)).toEqual([]);
    const page = readFileSync(ENVIRONMENT_PAGE, 'utf8');
    for (const name of names) expect(page, name).toContain(`| \`${name}\` |`);
  });
});
