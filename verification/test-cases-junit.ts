import { escapeXml } from './report-as-junit';
import type { TestCase } from './test-cases';

// JUnit XML of a list of test cases (the list CTRF is drawn from too): one <testsuite> per
// suite the caller names, in the order the cases come; a failure's type is its kind.

/** '0' for nothing measured, else to the millisecond. */
const time = (seconds: number) => (seconds === 0 ? '0' : seconds.toFixed(3));

function caseXml(c: TestCase): string {
  const open = `    <testcase classname="${escapeXml(c.classname)}" name="${escapeXml(c.name)}" time="${time(c.seconds)}">`;
  const message = escapeXml(c.message ?? '');
  const detail = escapeXml(c.detail ?? '');
  switch (c.status) {
    case 'passed':
      return c.detail === undefined ? `${open}</testcase>` : `${open}\n      <system-out>${detail}</system-out>\n    </testcase>`;
    case 'failed':
      return `${open}\n      <failure type="${escapeXml(c.kind ?? c.classname)}" message="${message}">${detail}</failure>\n    </testcase>`;
    case 'skipped':
      return `${open}\n      <skipped message="${message}"/>\n    </testcase>`;
    case 'error':
      return `${open}\n      <error type="${escapeXml(c.kind ?? 'stopped')}" message="${message}"/>\n    </testcase>`;
  }
}

const count = (cases: TestCase[], s: TestCase['status']) => cases.filter((c) => c.status === s).length;
/** The CI parsers' schema (fixtures/junit/junit-ci.xsd) allows `skipped` on a testsuite, not on testsuites. */
const totals = (cases: TestCase[], seconds: number) =>
  `tests="${cases.length}" failures="${count(cases, 'failed')}" errors="${count(cases, 'error')}" time="${seconds.toFixed(3)}"`;

/** `suiteOf` names each case's suite; `seconds` is the run's time (each suite's as well). */
export function renderTestCasesJunit(title: string, cases: TestCase[], seconds: number, suiteOf: (c: TestCase) => string): string {
  const suites = new Map<string, TestCase[]>();
  for (const c of cases) {
    const name = suiteOf(c);
    suites.set(name, [...(suites.get(name) ?? []), c]);
  }
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${escapeXml(title)}" ${totals(cases, seconds)}>`,
    ...[...suites].flatMap(([name, members]) => [
      `  <testsuite name="${escapeXml(name)}" ${totals(members, seconds)}>`,
      ...members.map(caseXml),
      '  </testsuite>',
    ]),
    '</testsuites>',
    '',
  ].join('\n');
}
