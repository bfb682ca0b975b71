import { describe, expect, it } from 'vitest';
import { checkContractPolicy } from './contract-policy';
import { compatReport } from './compat-report';
import { changelogEntry } from './compat-changelog';
import { sellerFinding } from './seller-policy';

// The release policy on reports built by hand: what each kind of change needs.

const breaking = sellerFinding(
  'reply-field-newly-required',
  'an invoice by invoice number',
  '/response/body/content/currency',
  { head: 'USD' },
  'newly expected',
);
const safe = sellerFinding('interaction-removed', 'an order', '', {}, 'removed');
const report = (baseVersion: string | undefined, headVersion: string, findings = [breaking]) =>
  compatReport(
    { source: 'contract-v3.2.0', version: baseVersion },
    { source: 'working tree', version: headVersion },
    findings,
  );

describe('the contract release policy', () => {
  it('needs nothing when nothing changed', () => {
    expect(checkContractPolicy(report('3.2.0', '3.2.0', []), '').ok).toBe(true);
  });

  it('refuses a breaking change without a major bump, or without an entry naming it', () => {
    expect(
      checkContractPolicy(report('3.2.0', '3.3.0'), changelogEntry('3.3.0', report('3.2.0', '3.3.0'))).lines,
    ).toEqual(['breaking changes need a major version bump: 3.2.0 → 3.3.0 is not one']);
    expect(checkContractPolicy(report('3.2.0', '4.0.0'), '## 3.2.0\n').lines[0]).toMatch(/need an entry '## 4\.0\.0'/);
    expect(
      checkContractPolicy(
        report('3.2.0', '4.0.0'),
        '## 4.0.0\n\nSomething else.\n## 3.2.0\n- `reply-field-newly-required` — an invoice by invoice number',
      ).ok,
    ).toBe(false);
  });

  it('passes a breaking change with a major bump and the generated entry', () => {
    const r = report('3.2.0', '4.0.0');
    expect(checkContractPolicy(r, `# Contract changelog\n\n${changelogEntry('4.0.0', r)}\n## 3.2.0\n`)).toMatchObject({
      ok: true,
    });
  });

  it('treats new work as breaking: a new required interaction waits for a major release', () => {
    const added = sellerFinding('interaction-added', 'an order, twice', '', {}, 'new');
    expect(checkContractPolicy(report('3.2.0', '3.3.0', [added]), '').ok).toBe(false);
  });

  it('needs a minor or patch bump for safe changes', () => {
    expect(checkContractPolicy(report('3.2.0', '3.2.0', [safe]), '').ok).toBe(false);
    expect(checkContractPolicy(report('3.2.0', '3.2.1', [safe]), '').ok).toBe(true);
    expect(checkContractPolicy(report('3.2.0', '3.3.0', [safe]), '').ok).toBe(true);
  });
});
