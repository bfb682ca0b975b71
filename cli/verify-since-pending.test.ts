import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTemporaryDirectory } from '../shared/testing/temporary-directory';
import { normalisePact, readPact, type PactDocument } from '../contracts/pact/pact-file';
import { PACT_FILE } from '../contracts/pact/pact-names';
import { useMockSeller } from '../mock-seller/testing/use-mock-seller';
import { CHANGED_INTERACTION, nextContractExample } from '../fixtures/pacts/next-contract-example';
import { compareDocuments } from '../verification/compat/compare-documents';
import { loadContract } from '../verification/compat/contract-source';
import { markPending } from '../verification/compat/pending-pact';
import type { VerificationReport } from '../verification/reports/verification-report';
import { hasXmllint, validateJunit } from '../verification/testing/junit-schema';
import { runInProcess } from './testing/run-in-process';
import { verifyCommand } from './verify-command';

// `verify --since` and `--pending` against the mock seller built for today's contract (default
// scenario). The pacts are cut down to four interactions so each run spawns the Pact verifier
// four times: one unchanged, one unchanged that a header fault can break, the guide's changed
// one (a reply field newly expected that the mock does not send) and one new in the next pact.

const dir = useTemporaryDirectory('verify-since-pending');
const mock = useMockSeller();

const UNCHANGED = 'an invoice by invoice number';
const BREAKABLE = 'an item inquiry for a part with an alternate';
const NEW = 'an order for a part in stock, received';

const today = readPact(PACT_FILE);
const only = (pact: PactDocument, descriptions: string[]): PactDocument => ({
  ...pact,
  interactions: pact.interactions.filter((i) => descriptions.includes(i.description)),
});
const write = (name: string, pact: PactDocument): string => {
  const file = join(dir.path, name);
  writeFileSync(file, normalisePact(pact));
  return file;
};
// Lazily: the temporary directory exists once the tests run.
const files = () => ({
  base: write('base.json', only(today, [UNCHANGED, BREAKABLE, CHANGED_INTERACTION])),
  next: write('next.json', only(nextContractExample(today), [UNCHANGED, BREAKABLE, CHANGED_INTERACTION, NEW])),
});

const seller = () => ['--seller-url', `${mock.url}/seller`, '--states-url', `${mock.url}/__admin/provider-state`];
const verify = (args: string[]) => runInProcess(verifyCommand, args, { env: {} });
const outputs = () => ({
  json: join(dir.path, `r-${Math.random().toString(36).slice(2)}.json`),
  junit: join(dir.path, `j-${Math.random().toString(36).slice(2)}.xml`),
});
const reportOf = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as VerificationReport;
const byDescription = (report: VerificationReport) => new Map(report.interactions.map((i) => [i.description, i]));

function expectValidJunit(xml: string) {
  if (!hasXmllint) return; // .ci/run installs libxml2-utils; without it the other assertions still hold
  const valid = validateJunit(xml);
  expect(valid.ok, valid.output).toBe(true);
}

describe('verify --since', () => {
  it('prints the changes first and marks exactly the new and changed interactions; the verdict alone decides the exit', async () => {
    const { base, next } = files();
    const out = outputs();
    const run = await verify([...seller(), '--pact', next, '--since', base, '--json', out.json, '--junit', out.junit]);
    expect(run.code, run.stderr).toBe(1);
    // The compat summary comes before the report.
    expect(run.stdout.indexOf('Changes since the contract you last passed (--since):')).toBe(0);
    expect(run.stdout.indexOf('[reply-field-newly-required]')).toBeLessThan(
      run.stdout.indexOf('Seller verification of'),
    );
    expect(run.stdout).toContain(
      `FAIL  ${CHANGED_INTERACTION} [changed since 3.2.0: reply-field-newly-required /response/body/content/items/0/fee]`,
    );
    expect(run.stdout).toContain(`PASS  ${NEW} [new since 3.2.0]`);
    expect(run.stdout).toMatch(new RegExp(`PASS {2}${UNCHANGED}\\n`));
    expect(run.stderr).toContain(`FAIL ${CHANGED_INTERACTION} [changed since 3.2.0: reply-field-newly-required`);

    const report = reportOf(out.json);
    expect(report.since?.summary).toMatchObject({ breaking: 1, 'new-work': 1, verdict: 'breaking' });
    const marked = report.interactions.filter((i) => i.changedSince !== undefined).map((i) => i.description);
    expect(marked.sort()).toEqual([NEW, CHANGED_INTERACTION].sort());
    expect(
      byDescription(report)
        .get(CHANGED_INTERACTION)
        ?.changedSince?.changes.map((c) => c.policy),
    ).toEqual(['reply-field-newly-required']);
    expect(report.interactions.some((i) => i.pending === true)).toBe(false);

    const xml = readFileSync(out.junit, 'utf8');
    expect(xml).toContain('failures="1"');
    expect(xml).toContain(
      '<system-out>changed since 3.2.0: reply-field-newly-required /response/body/content/items/0/fee</system-out>',
    );
    expectValidJunit(xml);
  });

  it('--pending: the new and changed interactions run as PENDING and never fail the run; a failure elsewhere still does', async () => {
    const { base, next } = files();
    const out = outputs();
    const html = join(dir.path, 'pending.html');
    const run = await verify([
      ...seller(),
      '--pact',
      next,
      '--since',
      base,
      '--pending',
      '--json',
      out.json,
      '--junit',
      out.junit,
      '--html',
      html,
    ]);
    expect(run.code, run.stdout).toBe(0);
    expect(run.stdout).toContain(`FAIL PENDING  ${CHANGED_INTERACTION} [changed since 3.2.0`);
    expect(run.stdout).toContain('pending: changed since 3.2.0 (--pending) — reported, never failing the run');
    expect(run.stdout).toContain(
      `PASSED: 3 of 4 interactions passed; 1 PENDING failed (not failing the run): '${CHANGED_INTERACTION}'`,
    );
    const report = reportOf(out.json);
    expect(report.ok).toBe(true);
    const interactions = byDescription(report);
    expect(interactions.get(CHANGED_INTERACTION)).toMatchObject({
      pending: true,
      pact: 'failed',
      pendingReason: 'changed since 3.2.0 (--pending)',
    });
    expect(interactions.get(NEW)).toMatchObject({
      pending: true,
      pact: 'passed',
      pendingReason: 'new since 3.2.0 (--pending)',
    });
    expect(interactions.get(UNCHANGED)?.pending).toBeUndefined();
    const xml = readFileSync(out.junit, 'utf8');
    expect(xml).toContain('failures="0" errors="0" skipped="1"');
    expect(xml).toMatch(
      new RegExp(
        `name="${CHANGED_INTERACTION}"[^>]*>\\s*<skipped message="pending: pact failed — changed since 3\\.2\\.0 \\(--pending\\), never fails the run">`,
      ),
    );
    expectValidJunit(xml);
    expect(readFileSync(html, 'utf8')).toMatch(/data-verdict="pending-fail"[\s\S]*?PENDING/);

    // A failure of an interaction that is not pending fails the run as before.
    const broken = await verify([
      ...seller(),
      '--pact',
      next,
      '--since',
      base,
      '--pending',
      '--header',
      'x-mock-fault: wrong-original-mfr',
    ]);
    expect(broken.code).toBe(1);
    expect(broken.stdout).toMatch(
      /FAILED: 1 of 4 interactions failed, 2 passed; 1 PENDING failed \(not failing the run\): .*; broken rules: alternate\.original-mfr/,
    );
  });

  it('a pact whose interactions say pending: true (npm run contract:pending) behaves the same without --since', async () => {
    const { base, next } = files();
    const marked = markPending(
      readPact(next),
      compareDocuments(loadContract(base, dir.path), loadContract(next, dir.path)),
    );
    expect(marked.pending).toEqual([NEW, CHANGED_INTERACTION].sort());
    expect(marked.pact.interactions.filter((i) => i.pending === false).map((i) => i.description)).toEqual(
      expect.arrayContaining([UNCHANGED, BREAKABLE]),
    );
    const pendingPact = write('next-pending.json', marked.pact);
    const out = outputs();
    const run = await verify([...seller(), '--pact', pendingPact, '--json', out.json, '--junit', out.junit]);
    expect(run.code, run.stdout).toBe(0);
    const interactions = byDescription(reportOf(out.json));
    expect(interactions.get(CHANGED_INTERACTION)).toMatchObject({
      pending: true,
      pact: 'failed',
      pendingReason: 'marked pending in the pact',
    });
    expect(interactions.get(CHANGED_INTERACTION)?.changedSince).toBeUndefined();
    const xml = readFileSync(out.junit, 'utf8');
    expect(xml).toContain('<skipped message="pending: pact failed — marked pending in the pact, never fails the run">');
    expectValidJunit(xml);
  });

  it('refuses a --since that is not a pact, or a ref that does not exist: exit 2 naming it, nothing run', async () => {
    const { next } = files();
    const notAPact = join(dir.path, 'not-a-pact.json');
    writeFileSync(notAPact, '{"hello": "world"}');
    const bad = await verify([...seller(), '--pact', next, '--since', notAPact]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(`verify: --since: ${notAPact} is neither a pact`);
    expect(bad.stdout).toBe('');
    const ref = await verify([...seller(), '--pact', next, '--since', 'contract-v0.0.0-no-such-tag']);
    expect(ref.code).toBe(2);
    expect(ref.stderr).toMatch(
      /verify: --since: contract-v0\.0\.0-no-such-tag is neither a file, a directory nor a git ref of /,
    );
  });
});
