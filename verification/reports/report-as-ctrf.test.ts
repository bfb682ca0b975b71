import { describe, expect, it } from 'vitest';
import { renderCtrf } from './report-as-ctrf';
import type { TestCase } from './test-cases';
import { ctrfSchemaErrors } from '../testing/ctrf-schema';

// The CTRF form against CTRF's published JSON Schema (fixtures/ctrf/, from the reference
// implementation's package): a dashboard that validates it accepts ours.

const cases: TestCase[] = [
  { classname: 'load', name: 'concurrency 1', seconds: 1.2345, status: 'passed', detail: '120 exchanges' },
  {
    classname: 'load',
    name: 'concurrency 2',
    seconds: 1,
    status: 'failed',
    kind: 'load',
    message: 'unhealthy',
    detail: 'p99 over the deadline',
  },
  {
    classname: 'load',
    name: 'concurrency 4',
    seconds: 0,
    status: 'skipped',
    message: 'not run: the request budget was spent',
  },
  { classname: 'load', name: 'run stopped by SIGINT', seconds: 0, status: 'error', message: 'stopped' },
];

describe('renderCtrf', () => {
  it('writes a document the published CTRF schema accepts', () => {
    const report = JSON.parse(
      renderCtrf('federated-gateway verify --load', cases, 1_700_000_000_000, 1_700_000_003_000),
    ) as unknown;
    expect(ctrfSchemaErrors(report)).toEqual([]);
  });

  it('counts each status, an error as other (never green), durations in whole ms', () => {
    const report = JSON.parse(renderCtrf('t', cases, 1, 2)) as {
      results: { summary: Record<string, number>; tests: { duration: number; suite: string[]; status: string }[] };
    };
    expect(report.results.summary).toMatchObject({
      tests: 4,
      passed: 1,
      failed: 1,
      skipped: 1,
      pending: 0,
      other: 1,
      start: 1,
      stop: 2,
    });
    expect(report.results.tests.map((t) => t.status)).toEqual(['passed', 'failed', 'skipped', 'other']);
    expect(report.results.tests[0]).toMatchObject({ duration: 1235, suite: ['load'] });
  });

  it('the schema check can fail: a suite given as a string is refused', () => {
    const report = JSON.parse(renderCtrf('t', cases, 1, 2)) as { results: { tests: { suite: unknown }[] } };
    report.results.tests[0].suite = 'load';
    expect(ctrfSchemaErrors(report)).toEqual(['/results/tests/0/suite must be array']);
  });
});
