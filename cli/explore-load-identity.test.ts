import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONTRACT_VERSION } from '../contracts/contract-version';
import { useMockSeller } from '../mock-seller/testing/use-mock-seller';
import { useTemporaryDirectory } from '../shared/testing/temporary-directory';
import type { RunIdentity } from '../verification/reports/run-identity';
import { ctrfSchemaErrors } from '../verification/testing/ctrf-schema';
import { hasXmllint, validateJunit } from '../verification/testing/junit-schema';
import type { CtrfReport } from '../verification/reports/report-as-ctrf';
import { main, versionLine } from './main';
import { runInProcess } from './testing/run-in-process';

// explore and load as a vendor runs them: their text, JSON, JUnit and CTRF reports name what
// they judged (toolkit and contract versions, the seller, when, how long) and that no pact was
// read, and the JUnit and CTRF files still validate with those fields.

const mock = useMockSeller();
const work = useTemporaryDirectory('explore-load-identity');
const file = (name: string) => join(work.path, name);
const STATE_MAP = 'fixtures/state-maps/mock-seller-explore.json';

const runs = {
  explore: ['--runs', '20', '--seed', '1'],
  load: ['--concurrency', '1', '--step-seconds', '0.2'],
};

describe.each(Object.entries(runs))('%s reports', (command, extra) => {
  it('name the toolkit, the contract, the seller, the start and the length; say no pact was read', async () => {
    const seller = `${mock.url}/seller`;
    const reports = ['--json', file(`${command}.json`), '--junit', file(`${command}.xml`)];
    const ctrf = ['--ctrf', file(`${command}.ctrf.json`)];
    const run = await runInProcess(main, [
      command,
      '--seller-url',
      seller,
      '--state-map',
      STATE_MAP,
      ...extra,
      ...reports,
      ...ctrf,
    ]);
    expect(run.code, run.stderr).toBe(0);
    const [toolkit] = versionLine().split(' ');
    const json = JSON.parse(readFileSync(file(`${command}.json`), 'utf8')) as { run?: RunIdentity };
    expect(json.run).toMatchObject({ toolkitVersion: toolkit, contractVersion: CONTRACT_VERSION, pacts: [] });
    expect(json.run?.sellerUrl).toBe(seller);
    expect(json.run?.startedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(json.run?.durationMs).toBeGreaterThan(0);

    expect(run.stdout).toContain(`  toolkit:  ${toolkit}\n  contract: ${CONTRACT_VERSION}\n`);
    expect(run.stdout).toMatch(/ {2}pact: {5}none \(generated exchanges/);

    const xml = readFileSync(file(`${command}.xml`), 'utf8');
    expect(xml).toContain(`<property name="toolkit.version" value="${toolkit}"/>`);
    expect(xml).toContain(`<property name="seller.url" value="${seller}"/>`);
    if (hasXmllint) expect(validateJunit(xml)).toMatchObject({ ok: true });
    const document = JSON.parse(readFileSync(file(`${command}.ctrf.json`), 'utf8')) as CtrfReport;
    expect(ctrfSchemaErrors(document)).toEqual([]);
    expect(document.results.tool.version).toBe(toolkit);
  });
});
