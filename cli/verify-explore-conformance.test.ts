import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../shared/testing/temporary-directory';
import { hasXmllint, validateJunit } from '../verification/testing/junit-schema';
import { startMockSeller, type RunningMockSeller } from '../mock-seller/index';
import { verifyCommand } from './verify-command';
import { runInProcess } from './testing/run-in-process';
import type { ConformanceReport } from '../verification/explore/conformance';
import type { CtrfReport } from '../verification/reports/report-as-ctrf';
import { ctrfSchemaErrors } from '../verification/testing/ctrf-schema';

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

  const fault = async (part_number: string, f: Record<string, unknown>) => {
    const added = await fetch(`${mock.url}/__admin/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ service: 'item_inquiry', part_number, fault: f }),
    });
    expect(added.status).toBe(201);
  };

  it('--min-score tolerates unanswered exchanges (capacity), never a broken reply rule (correctness); JSON and JUnit say the same', async () => {
    await fetch(`${mock.url}/__admin/reset`, { method: 'POST' });
    // One part's inquiries answer 503: a share of the exchanges is not answered at all.
    await fault('51515', { kind: 'http-status', status: 503 });
    const dir = temporaryDirectory('explore');
    const run = async (minScore: string) => {
      const { code, stdout } = await runInProcess(verifyCommand, [
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
        '--ctrf',
        join(dir, 'r.ctrf.json'),
      ]);
      return {
        code,
        stdout,
        json: JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')) as ConformanceReport,
        xml: readFileSync(join(dir, 'r.xml'), 'utf8'),
        ctrf: JSON.parse(readFileSync(join(dir, 'r.ctrf.json'), 'utf8')) as CtrfReport,
      };
    };
    const strict = await run('1');
    expect(strict.code).toBe(1);
    const answer = strict.json.rows.find((r) => r.operation === 'item-inquiry' && r.rule === 'reply.answer')!;
    expect(answer.score).toBeGreaterThan(0);
    expect(answer.score).toBeLessThan(1);
    expect(strict.stdout).toMatch(
      /FAILED: \d+ of \d+ exchanges went unanswered, below --min-score — item-inquiry \d+\.\d%/,
    );
    expect(strict.xml).toContain('<failure type="reply.answer"');
    if (hasXmllint) expect(validateJunit(strict.xml).ok).toBe(true);
    const lenient = await run(String(answer.score! - 0.01));
    expect(lenient.code).toBe(0);
    expect(lenient.json.ok).toBe(true);
    expect(lenient.xml).not.toContain('<failure');

    // Two parts' alternates spoiled: a share of item inquiries breaks a reply rule. Whatever the score
    // allowed, the run fails.
    for (const part_number of ['BRF1478', 'K060882']) await fault(part_number, { kind: 'wrong-original-part' });
    const broken = await run('0');
    const row = broken.json.rows.find((r) => r.operation === 'item-inquiry' && r.rule === 'alternate.original-part')!;
    expect(row.broken).toBeGreaterThan(0);
    expect(row.passed).toBe(false);
    expect(broken.code).toBe(1);
    expect(broken.json.ok).toBe(false);
    expect(broken.stdout).toMatch(
      /FAILED: \d+ of \d+ exchanges broke a reply rule — item-inquiry alternate.original-part \d+\.\d% \(a broken reply rule fails the run whatever --min-score\)/,
    );
    expect(broken.xml).toContain('<failure type="alternate.original-part"');
    // CTRF says the same as JUnit: the broken rule failed, whatever the score.
    expect(ctrfSchemaErrors(broken.ctrf)).toEqual([]);
    const ctrf = broken.ctrf.results;
    expect(
      ctrf.tests.find((t) => t.suite[0] === 'explore.item-inquiry' && t.name === 'alternate.original-part')?.status,
    ).toBe('failed');
    expect(ctrf.summary.failed).toBe((broken.xml.match(/<failure /g) ?? []).length);
    expect(lenient.ctrf.results.summary.failed).toBe(0);
  });
});
