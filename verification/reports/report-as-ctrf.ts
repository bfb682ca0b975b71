import type { TestCaseList, TestCaseStatus } from './test-cases';
import type { RunIdentity } from './run-identity';

// CTRF (Common Test Report Format, ctrf.io, spec 0.0.0): the JSON report many CI dashboards
// read. One entry per test case; 'error' is CTRF's 'other' status, so a stopped run never reads
// as green. Checked against the published schema (fixtures/ctrf/) in report-as-ctrf.test.ts.
// What the run judged (cases drawn from a report carry it) goes where the schema has room for
// it: the toolkit's version as the tool's, the rest under results.environment.extra, and the
// run's own start and length as the summary's.

type CtrfStatus = 'passed' | 'failed' | 'skipped' | 'pending' | 'other';

const CTRF_STATUS = {
  passed: 'passed',
  failed: 'failed',
  skipped: 'skipped',
  error: 'other',
} as const satisfies Record<TestCaseStatus, CtrfStatus>;

export const CTRF_SPEC_VERSION = '0.0.0';

export interface CtrfReport {
  reportFormat: 'CTRF';
  specVersion: string;
  timestamp: string;
  generatedBy: string;
  results: {
    tool: { name: string; version?: string };
    environment?: { extra: RunIdentity };
    summary: {
      tests: number;
      passed: number;
      failed: number;
      pending: number;
      skipped: number;
      other: number;
      start: number;
      stop: number;
      duration?: number;
    };
    /** suite: the hierarchy from the top, here one level (the test case's classname). */
    tests: { name: string; status: CtrfStatus; duration: number; suite: string[]; message?: string; trace?: string }[];
  };
}

export function renderCtrf(tool: string, cases: TestCaseList, givenStart: number, givenStop: number): string {
  const { run } = cases;
  // The run's identity is the one home of its times: the caller's are for cases that carry none.
  const start = run === undefined ? givenStart : Date.parse(run.startedAt);
  const stop = run === undefined ? givenStop : start + run.durationMs;
  const tests = cases.map((c) => ({
    name: c.name,
    status: CTRF_STATUS[c.status],
    duration: Math.round(c.seconds * 1000),
    suite: [c.classname],
    ...(c.message !== undefined ? { message: c.message } : {}),
    ...(c.detail !== undefined ? { trace: c.detail } : {}),
  }));
  const count = (s: CtrfStatus) => tests.filter((t) => t.status === s).length;
  const report: CtrfReport = {
    reportFormat: 'CTRF',
    specVersion: CTRF_SPEC_VERSION,
    timestamp: new Date(stop).toISOString(),
    generatedBy: tool,
    results: {
      tool: { name: tool, ...(run !== undefined ? { version: run.toolkitVersion } : {}) },
      ...(run !== undefined ? { environment: { extra: run } } : {}),
      summary: {
        tests: tests.length,
        passed: count('passed'),
        failed: count('failed'),
        pending: count('pending'),
        skipped: count('skipped'),
        other: count('other'),
        start,
        stop,
        ...(run !== undefined ? { duration: run.durationMs } : {}),
      },
      tests,
    },
  };
  return `${JSON.stringify(report, null, 2)}\n`;
}
