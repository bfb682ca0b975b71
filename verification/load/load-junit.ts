import { escapeXml } from '../report-as-junit';
import type { LoadReport } from './load-report';
import { loadTestCases } from './load-test-cases';
import type { TestCase } from '../test-cases';

// JUnit XML of a load run, drawn from its test cases (load-test-cases.ts).

function caseXml(c: TestCase): string {
  const open = `    <testcase classname="${escapeXml(c.classname)}" name="${escapeXml(c.name)}" time="${c.seconds.toFixed(3)}">`;
  const message = escapeXml(c.message ?? '');
  const detail = escapeXml(c.detail ?? '');
  switch (c.status) {
    case 'passed':
      return c.detail === undefined ? `${open}</testcase>` : `${open}\n      <system-out>${detail}</system-out>\n    </testcase>`;
    case 'failed':
      return `${open}\n      <failure type="${escapeXml(c.classname)}" message="${message}">${detail}</failure>\n    </testcase>`;
    case 'skipped':
      return `${open}\n      <skipped message="${message}"/>\n    </testcase>`;
    case 'error':
      return `${open}\n      <error type="stopped" message="${message}"/>\n    </testcase>`;
  }
}

export function renderLoadJunit(report: LoadReport): string {
  const cases = loadTestCases(report);
  const count = (s: TestCase['status']) => cases.filter((c) => c.status === s).length;
  const time = report.steps.reduce((t, s) => t + s.seconds, 0).toFixed(3);
  const totals = `tests="${cases.length}" failures="${count('failed')}" errors="${count('error')}" skipped="${count('skipped')}" time="${time}"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="seller-system load (seed ${report.seed})" ${totals}>`,
    `  <testsuite name="load" ${totals}>`,
    ...cases.map(caseXml),
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
