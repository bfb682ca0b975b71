import { valueText } from '../reports/report-as-text';
import { withRun, type TestCase, type TestCaseList } from '../reports/test-cases';
import type { ConformanceReport } from './conformance';
import { percent } from './conformance-text';
import { TIME_LIMIT } from './run-exploration';

// An exploration as test cases, for JUnit and CTRF: one per operation × rule with stable names
// (`explore.item-inquiry` / `alternate.original-part`), so CI keeps a rule's history across
// runs. Not exercised: skipped. Broken (or, for reply.answer, below --min-score): failed, with
// the shrunk request and its curl command. Stopped by a signal: an error of its own.

export function conformanceTestCases(report: ConformanceReport): TestCaseList {
  const cases: TestCase[] = report.rows.map((r) => {
    const base = { classname: `explore.${r.operation}`, name: r.rule, seconds: 0 };
    const stats = `exercised ${r.exercised}, broken ${r.broken}, score ${percent(r.score)}`;
    if (r.score === null)
      return {
        ...base,
        status: 'skipped',
        message: `not exercised: no generated exchange gave ${r.rule} anything to check`,
      };
    if (r.passed) return { ...base, status: 'passed', detail: stats };
    const f = report.failures.find((x) => x.operation === r.operation && x.rule === r.rule);
    const detail =
      f === undefined
        ? [stats]
        : [
            stats,
            f.finding.message,
            `item id: ${f.finding.id ?? '—'}   path: ${f.finding.path || '/'}`,
            ...(f.finding.expected !== undefined || f.finding.found !== undefined
              ? [`expected: ${valueText(f.finding.expected)}   found: ${valueText(f.finding.found)}`]
              : []),
            `request: ${JSON.stringify(f.shrunk.request)}`,
            f.reproduces === 'only-under-concurrency'
              ? `only under concurrency (correct every time alone; a lone curl would pass): ${f.replay ?? 'no replay file written'}`
              : `reproduce: ${f.curl}`,
          ];
    return { ...base, status: 'failed', kind: r.rule, message: `${r.rule}: ${stats}`, detail: detail.join('\n') };
  });
  // A signal (not --time-limit, a planned end) stopped it: a case of its own says so, as an error.
  if (report.stopped !== undefined && report.stopped !== TIME_LIMIT) {
    const { done, planned } = report.runs;
    const message = `run stopped by ${report.stopped} before ${planned - done} of ${planned} exchanges were sent`;
    cases.push({ classname: 'explore.run', name: message, seconds: 0, status: 'error', kind: 'stopped', message });
  }
  return withRun(cases, report.run);
}
