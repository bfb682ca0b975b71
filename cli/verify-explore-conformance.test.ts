import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../shared/testing/temporary-directory';
import { hasXmllint, validateJunit } from '../verification/testing/junit-schema';
import { startMockSeller, type RunningMockSeller } from '../mock-seller/index';
import { verifyCommand } from './verify-command';
import type { ConformanceReport } from '../verification/explore/conformance';

// The conformance report: operation × rule with exercised / broken / score, the --min-score
// gate, and JUnit XML that the CI parsers' schema accepts (xmllint against fixtures/junit).

describe('verify --explore with --min-score, --json and --junit', () => {
  let mock: RunningMockSeller;
  beforeAll(async () => {
    mock = await startMockSeller({ scenario: 'fixtures/scenarios/default.json' });
  });
  afterAll(async () => {
    await mock?.close();
  });

  it('fails (exit 1) under the gate and passes (exit 0) above it, writing JSON and JUnit', async () => {
    // Two of the default scenario's parts have their alternates spoiled: a share of item inquiries breaks.
    for (const part_number of ['BRF1478', 'K060882']) {
      const added = await fetch(`${mock.url}/__admin/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ service: 'item_inquiry', part_number, fault: { kind: 'wrong-original-part' } }),
      });
      expect(added.status).toBe(201);
    }
    const dir = temporaryDirectory('explore');
    const run = async (minScore: string) => {
      let stdout = '';
      const code = await verifyCommand(
        [
          '--explore',
          '--seller-url',
          `${mock.url}/seller`,
          '--states-url',
          `${mock.url}/__admin/provider-state`,
          '--runs',
          '200',
          '--seed',
          '11',
          '--min-score',
          minScore,
          '--json',
          join(dir, 'r.json'),
          '--junit',
          join(dir, 'r.xml'),
        ],
        { stdout: (t) => void (stdout += t), stderr: () => {}, env: {}, stdoutIsTTY: false, stderrIsTTY: false, signal: new AbortController().signal },
      );
      return { code, stdout, json: JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')) as ConformanceReport, xml: readFileSync(join(dir, 'r.xml'), 'utf8') };
    };
    const strict = await run('1');
    expect(strict.code).toBe(1);
    const row = strict.json.rows.find((r) => r.operation === 'item-inquiry' && r.rule === 'alternate.original-part')!;
    expect(row.broken).toBeGreaterThan(0);
    expect(row.score).toBeGreaterThan(0);
    expect(row.score).toBeLessThan(1);
    expect(strict.xml).toContain('<failure type="alternate.original-part"');
    if (hasXmllint) expect(validateJunit(strict.xml).ok).toBe(true);
    const lenient = await run(String(row.score! - 0.01));
    expect(lenient.code).toBe(0);
    expect(lenient.json.ok).toBe(true);
    expect(lenient.xml).not.toContain('<failure');
  });
});
