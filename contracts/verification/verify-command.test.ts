import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockSeller, type RunningMockSeller } from '../../mock-seller/app';

// `npm run verify` as a vendor's CI runs it: exit codes, the report on stdout, progress on
// stderr, JUnit XML on disk.

function verify(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', 'scripts/verify-seller.ts', ...args], { timeout: 90_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout, stderr }),
    );
  });
}

let mock: RunningMockSeller;
beforeAll(async () => {
  mock = await startMockSeller({ scenario: 'fixtures/scenarios/default.json', port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await mock?.close();
});

describe('npm run verify', () => {
  it('exits 1 on a broken seller, with the rule in the report and in the JUnit file', async () => {
    const junit = join(mkdtempSync(join(tmpdir(), 'verify-')), 'results.xml');
    // The fault travels as a header on every request, the way a vendor adds its own auth.
    const run = await verify(['--seller-url', `${mock.url}/seller`, '--states-url', `${mock.url}/__admin/provider-state`, '--header', 'x-mock-fault: wrong-original-mfr', '--junit', junit]);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toMatch(/\[\d+\/15\] an item inquiry for a part with an alternate — BROKEN: alternate\.original-mfr/);
    expect(run.stdout).toContain("expected: 'MOT'   found: 'MOT-WRONG'");
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toMatch(/<testsuite name="seller-system verification" tests="15" failures="\d+"/);
    expect(xml).toContain('alternate.original-mfr [id alternate-1] /items/1/original_mfr');
  });

  it('exits 2 with the usage when the seller URL is missing', async () => {
    const run = await verify([]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('verify: --seller-url is required');
    expect(run.stderr).toContain('Usage: npm run verify');
  });
});
