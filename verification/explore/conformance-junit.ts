import { escapeXml, stoppedCase } from '../report-as-junit';
import { TIME_LIMIT } from './run-exploration';
import { valueText } from '../report-as-text';
import { percent } from './conformance-text';
import type { ConformanceReport } from './conformance';

// JUnit XML of an exploration: one testsuite per operation, one testcase per operation ×
// rule with stable names (`explore.item-inquiry` / `alternate.original-part`), so CI keeps
// a rule's history across runs. Not exercised: skipped. Below --min-score: failure, with the
// shrunk request and its curl command.

export function renderConformanceJunit(report: ConformanceReport): string {
  const operations = [...new Set(report.rows.map((r) => r.operation))];
  const suites = operations.map((operation) => {
    const rows = report.rows.filter((r) => r.operation === operation);
    const cases = rows.map((r) => {
      const open = `    <testcase classname="explore.${escapeXml(operation)}" name="${escapeXml(r.rule)}" time="0">`;
      const stats = `exercised ${r.exercised}, broken ${r.broken}, score ${percent(r.score)}`;
      if (r.score === null)
        return `${open}\n      <skipped message="${escapeXml(`not exercised: no generated exchange gave ${r.rule} anything to check`)}"/>\n    </testcase>`;
      if (r.passed) return `${open}\n      <system-out>${escapeXml(stats)}</system-out>\n    </testcase>`;
      const f = report.failures.find((x) => x.operation === operation && x.rule === r.rule);
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
      return `${open}\n      <failure type="${escapeXml(r.rule)}" message="${escapeXml(`${r.rule}: ${stats}`)}">${escapeXml(detail.join('\n'))}</failure>\n    </testcase>`;
    });
    const failures = rows.filter((r) => r.score !== null && !r.passed).length;
    const skipped = rows.filter((r) => r.score === null).length;
    return [
      `  <testsuite name="explore.${escapeXml(operation)}" tests="${rows.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${(report.elapsedMs / 1000).toFixed(3)}">`,
      ...cases,
      '  </testsuite>',
    ].join('\n');
  });
  const failures = report.rows.filter((r) => r.score !== null && !r.passed).length;
  // A signal (not --time-limit, a planned end) stopped it: a suite of its own says so, as an error.
  const signalled = report.stopped !== undefined && report.stopped !== TIME_LIMIT;
  if (signalled) {
    const { done, planned } = report.runs;
    suites.push(
      [
        `  <testsuite name="explore.run" tests="1" failures="0" errors="1" skipped="0" time="${(report.elapsedMs / 1000).toFixed(3)}">`,
        stoppedCase(report.stopped!, `${planned - done} of ${planned} exchanges were sent`, 'explore.run'),
        '  </testsuite>',
      ].join('\n'),
    );
  }
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="seller-system exploration (seed ${report.seed})" tests="${report.rows.length + (signalled ? 1 : 0)}" failures="${failures}" ` +
      `errors="${report.stopped !== undefined ? 1 : 0}" time="${(report.elapsedMs / 1000).toFixed(3)}">`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}
