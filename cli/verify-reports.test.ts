import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, type Listening } from '../shared/http/listen';
import { useTemporaryDirectory } from '../shared/testing/temporary-directory';
import { PACT_FILE } from '../contracts/pact/pact-names';
import { CONTRACT_VERSION } from '../contracts/contract-version';
import { useMockSeller } from '../mock-seller/testing/use-mock-seller';
import { runInProcess } from './testing/run-in-process';
import { main, versionLine } from './main';
import { ctrfSchemaErrors } from '../verification/testing/ctrf-schema';
import { hasXmllint, validateJunit } from '../verification/testing/junit-schema';
import type { VerificationReport } from '../verification/reports/verification-report';
import type { CtrfReport } from '../verification/reports/report-as-ctrf';

// `verify` as a vendor runs it, against the mock seller behind a relay that spells the first
// location's cost as a string and its list price with a trailing zero (24.990, a decimal the
// way the seller wrote it): every form names what it judged (toolkit and contract versions,
// the pact's sha256, the seller, when, how long), the pact's example is never presented as
// the value to return, the failed interaction's request comes as a curl command, the
// headline counts what failed, and the HTML shows the reply's bytes as they arrived.

const mock = useMockSeller();
const work = useTemporaryDirectory('verify-reports');
let relay: Listening;
let pact: string;
let run: { code: number; stdout: string; stderr: string };

const DESCRIPTION = 'an item inquiry for a part stocked at two locations';
const file = (name: string) => join(work.path, name);

beforeAll(async () => {
  relay = await listen(async (request) => {
    const answer = await fetch(`${mock.url}/seller`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: await request.text(),
    });
    const text = (await answer.text())
      .replace(/"cost":(\d+(?:\.\d+)?)/, '"cost":"$1"')
      .replace(/"list":(\d+\.\d+)/, '"list":$10');
    return new Response(text, { status: answer.status, headers: { 'content-type': 'application/json' } });
  });
  const document = JSON.parse(readFileSync(PACT_FILE, 'utf8')) as { interactions: { description: string }[] };
  document.interactions = document.interactions.filter((i) => i.description === DESCRIPTION);
  pact = file('one.json');
  writeFileSync(pact, JSON.stringify(document));
  const args = ['--seller-url', `${relay.url}/seller`, '--states-url', `${mock.url}/__admin/provider-state`];
  const reports = ['--json', 'r.json', '--junit', 'r.xml', '--ctrf', 'r.ctrf.json', '--html', 'r.html'];
  run = await runInProcess(main, [
    'verify',
    ...args,
    '--pact',
    pact,
    ...reports.map((a) => (a.startsWith('--') ? a : file(a))),
  ]);
});
afterAll(async () => {
  await relay?.close();
});

describe('verify reports', () => {
  it('every form names the toolkit, the contract, the pact by its sha256, the seller, the start and the length', () => {
    expect(run.code, run.stderr).toBe(1);
    const sha256 = createHash('sha256').update(readFileSync(pact)).digest('hex');
    const [toolkit] = versionLine().split(' ');
    const json = JSON.parse(readFileSync(file('r.json'), 'utf8')) as VerificationReport;
    expect(json.run).toMatchObject({
      toolkitVersion: toolkit,
      contractVersion: CONTRACT_VERSION,
      pacts: [{ file: pact, sha256 }],
      sellerUrl: `${relay.url}/seller`,
    });
    expect(json.run?.startedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(json.run?.durationMs).toBeGreaterThan(0);

    expect(run.stdout).toContain(
      [
        `Seller verification of ${relay.url}/seller`,
        `  toolkit:  ${toolkit}`,
        `  contract: ${CONTRACT_VERSION}`,
        `  pact:     ${pact} (sha256 ${sha256.slice(0, 12)})`,
        `  seller:   ${relay.url}/seller`,
        `  started:  ${json.run?.startedAt}`,
      ].join('\n'),
    );

    const xml = readFileSync(file('r.xml'), 'utf8');
    for (const [name, value] of [
      ['toolkit.version', toolkit],
      ['contract.version', CONTRACT_VERSION],
      ['pact.file', pact],
      ['pact.sha256', sha256],
      ['seller.url', `${relay.url}/seller`],
      ['run.started', json.run?.startedAt],
      ['run.duration_ms', String(json.run?.durationMs)],
    ])
      expect(xml).toContain(`<property name="${name}" value="${value}"/>`);
    if (hasXmllint) expect(validateJunit(xml)).toMatchObject({ ok: true });

    const ctrf = JSON.parse(readFileSync(file('r.ctrf.json'), 'utf8')) as CtrfReport;
    expect(ctrfSchemaErrors(ctrf)).toEqual([]);
    expect(ctrf.results.tool.version).toBe(toolkit);
    expect(ctrf.results.environment?.extra).toEqual(json.run);
    expect(ctrf.results.summary.start).toBe(Date.parse(json.run?.startedAt ?? ''));

    const html = readFileSync(file('r.html'), 'utf8');
    expect(html).toContain(`<tr><th>pact</th><td>${pact} (sha256 ${sha256})</td></tr>`);
    expect(html).toContain(`<tr><th>contract</th><td>${CONTRACT_VERSION}</td></tr>`);
  });

  it("says a type-matched value is the pact's example, never the value to return", () => {
    expect(run.stdout).toContain(
      `pact mismatch at $.items[0].locations[0].cost: expected a number (the pact's example is 5.88; any number passes), got "15.49" (a string)\n`,
    );
    expect(run.stdout).not.toContain("expected '5.88'");
    const json = JSON.parse(readFileSync(file('r.json'), 'utf8')) as VerificationReport;
    expect(json.interactions[0].pactMismatches[0]).toMatchObject({
      exampleOnly: true,
      pactMessage: "Expected '15.49' (String) to be a number",
    });
    expect(readFileSync(file('r.xml'), 'utf8')).toContain(
      'expected a number (the pact&apos;s example is 5.88; any number passes), got &quot;15.49&quot; (a string)',
    );
  });

  it("gives the failed interaction's request as a curl command, and the headline counts what failed", () => {
    expect(run.stdout).toMatch(
      /\n {8}request \(after setting up 'part exists'; add your --header values\): curl -sS -X POST 'http:\/\/127\.0\.0\.1:\d+\/seller' -H 'content-type: application\/json' --data-raw '\{"items":\[\{"id":"stocked-1",/,
    );
    expect(run.stdout).toContain('\nFAILED: 1 of 1 interactions failed, 0 passed; broken rules: reply.schema\n');
    expect(readFileSync(file('r.html'), 'utf8')).toMatch(/<pre data-testid="curl">curl -sS -X POST/);
  });

  it("shows the seller's reply in the HTML as its bytes arrived: 24.990 stays 24.990", () => {
    const html = readFileSync(file('r.html'), 'utf8');
    expect(html).toMatch(/&quot;list&quot;: \d+\.\d+0,/);
    expect(html).toContain('<mark class="broken" data-path="/items/0/locations/0/cost"');
  });
});
