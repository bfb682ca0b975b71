import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTemporaryDirectory } from '../shared/testing/temporary-directory';
import { runInProcess } from './testing/run-in-process';
import { verifyCommand } from './verify-command';
import type { VerificationReport } from '../verification/reports/verification-report';
import {
  SPEC_FAITHFUL_STATE_MAP as MAP,
  startSpecFaithfulSeller,
  type RunningPythonSeller,
} from '../fixtures/sellers/spec-faithful-seller';

// A vendor who wrote their seller from the specification alone (a Python seller, its own
// catalogue, no downloadable invoice copies, a discontinued superseded part) runs verify with
// its state map, as the guide says: one declaration, and every other interaction passes.

const dir = useTemporaryDirectory('verify-not-offered');
let python: RunningPythonSeller;
let sellerUrl: string;

beforeAll(async () => {
  python = await startSpecFaithfulSeller();
  sellerUrl = python.url;
});
afterAll(() => python?.close());

async function verify(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const { code, stdout, stderr } = await runInProcess(verifyCommand, argv);
  return { code, out: stdout, err: stderr };
}

/** The spec-faithful map with changes, written beside the test's other files. */
function mapWith(change: (map: Record<string, unknown>) => void): string {
  const map = JSON.parse(readFileSync(MAP, 'utf8')) as Record<string, unknown>;
  change(map);
  const file = join(dir.path, `map-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(map));
  return file;
}

describe('optional interactions a seller does not offer', () => {
  it('a spec-faithful seller without downloadable copies passes with one declaration in its state map', async () => {
    const junit = join(dir.path, 'junit.xml');
    const json = join(dir.path, 'report.json');
    const run = await verify(['--seller-url', sellerUrl, '--state-map', MAP, '--junit', junit, '--json', json]);
    expect(run.out).toContain(
      "PASSED: 14 of 15 interactions passed, 1 NOT OFFERED (optional): 'an invoice with a downloadable copy'",
    );
    expect(run.code).toBe(0);
    expect(run.err).toMatch(/\[\d+\/15\] NOT OFFERED \(optional\) an invoice with a downloadable copy/);
    const report = JSON.parse(readFileSync(json, 'utf8')) as VerificationReport;
    expect(report.ok).toBe(true);
    const declared = report.interactions.filter((i) => i.pact === 'not-offered');
    expect(declared.map((i) => [i.description, i.notOffered])).toEqual([
      [
        'an invoice with a downloadable copy',
        "NOT OFFERED (optional): the seller declared 'invoice has a downloadable copy' not offered ('link_url' optional in the specification)",
      ],
    ]);
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toContain('failures="0" errors="0" skipped="1"');
    expect(xml).toMatch(
      /name="an invoice with a downloadable copy"[^>]*>\s*<skipped message="NOT OFFERED \(optional\): /,
    );
  });

  it('without the declaration the same seller fails only the optional interaction, which the start lists as lacking values', async () => {
    const map = mapWith((m) => delete m.not_offered);
    const refused = await verify(['--seller-url', sellerUrl, '--state-map', map]);
    expect(refused.code).toBe(2);
    expect(refused.err).toContain(`'invoice has a downloadable copy': invoice_number = "INV-100404"`);
    expect(refused.err).toContain('--allow-example-values');

    const run = await verify(['--seller-url', sellerUrl, '--state-map', map, '--allow-example-values']);
    expect(run.code).toBe(1);
    expect(run.out).toContain('FAILED: 1 of 15 interactions failed, 14 passed');
    expect(run.out).toMatch(
      /FAIL {2}an invoice with a downloadable copy[\s\S]*example values: state 'invoice has a downloadable copy' had no value for invoice_number \(the contract's example "INV-100404" was sent\)/,
    );
  });

  it('--not-offered declares on the command line what the map does not', async () => {
    const map = mapWith((m) => delete m.not_offered);
    const run = await verify([
      '--seller-url',
      sellerUrl,
      '--state-map',
      map,
      '--not-offered',
      'invoice has a downloadable copy',
    ]);
    expect(run.code).toBe(0);
    expect(run.out).toContain('1 NOT OFFERED (optional)');
  });

  it('a state of a required interaction cannot be declared: exit 2 naming it', async () => {
    const run = await verify(['--seller-url', sellerUrl, '--state-map', MAP, '--not-offered', 'account has invoices']);
    expect(run.code).toBe(2);
    expect(run.err).toContain(
      "'account has invoices' cannot be declared not offered: 'an invoice by invoice number', 'invoices by PO number', 'invoices by date range' are required",
    );
    const unknown = await verify([
      '--seller-url',
      sellerUrl,
      '--state-map',
      mapWith((m) => (m.not_offered = ['part has wings'])),
    ]);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain("/not_offered/0: unknown state 'part has wings'");
  });
});
