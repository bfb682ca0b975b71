import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { packagePath } from '../../shared/package-root';
import { OPENAPI_POLICY } from './openapi-compat-policy';

describe('the buyer-side policy', () => {
  it('has only breaking and safe rules, and docs/openapi-compat.md lists each with its class', () => {
    const page = readFileSync(packagePath('docs', 'openapi-compat.md'), 'utf8');
    const rows = Object.entries(OPENAPI_POLICY).filter(
      ([name, rule]) => !page.includes(`| \`${name}\` | ${rule.class} |`),
    );
    expect(rows).toEqual([]);
    expect(new Set(Object.values(OPENAPI_POLICY).map((r) => r.class))).toEqual(new Set(['breaking', 'safe']));
  });
});
