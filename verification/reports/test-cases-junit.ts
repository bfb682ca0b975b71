import { escapeXml } from './xml-text';
import type { TestCase } from './test-cases';
import { identityProperties, type RunIdentity } from './run-identity';

// JUnit XML of a list of test cases (the list CTRF is drawn from too): one <testsuite> per
// suite the caller names, in the order the cases come; a failure's type is its kind, a note is
// system-out beside any verdict, a skipped case keeps its detail (a pending failure to read).

/** '0' for nothing measured, else to the millisecond. */
const time = (seconds: number) => (seconds === 0 ? '0' : seconds.toFixed(3));

/** One case, as every JUnit form of the kit writes it. */
export function caseXml(c: TestCase): string {
  const open = `    <testcase classname="${escapeXml(c.classname)}" name="${escapeXml(c.name)}" time="${time(c.seconds)}"`;
  const note = c.note === undefined ? '' : `\n      <system-out>${escapeXml(c.note)}</system-out>`;
  const message = escapeXml(c.message ?? '');
  const detail = escapeXml(c.detail ?? '');
  switch (c.status) {
    case 'passed':
      if (c.detail === undefined) return note === '' ? `${open}/>` : `${open}>${note}\n    </testcase>`;
      return `${open}>\n      <system-out>${detail}${c.note === undefined ? '' : `\n${escapeXml(c.note)}`}</system-out>\n    </testcase>`;
    case 'failed':
      return `${open}>\n      <failure type="${escapeXml(c.kind ?? c.classname)}" message="${message}">${detail}</failure>${note}\n    </testcase>`;
    case 'skipped':
      return c.detail === undefined
        ? `${open}>\n      <skipped message="${message}"/>${note}\n    </testcase>`
        : `${open}>\n      <skipped message="${message}">${detail}</skipped>${note}\n    </testcase>`;
    case 'error':
      return `${open}>\n      <error type="${escapeXml(c.kind ?? 'stopped')}" message="${message}"/>\n    </testcase>`;
  }
}

const count = (cases: TestCase[], s: TestCase['status']) => cases.filter((c) => c.status === s).length;
/** The CI parsers' schema (fixtures/junit/junit-ci.xsd) allows `skipped` on a testsuite, not on testsuites. */
const totals = (cases: TestCase[], seconds: number) =>
  `tests="${cases.length}" failures="${count(cases, 'failed')}" errors="${count(cases, 'error')}" time="${seconds.toFixed(3)}"`;

/** What the run judged, as a testsuite's `<properties>` (the schema allows them on a testsuite only). */
export function propertiesXml(run: RunIdentity | undefined): string[] {
  if (run === undefined) return [];
  return [
    '    <properties>',
    ...identityProperties(run).map(
      ([name, value]) => `      <property name="${escapeXml(name)}" value="${escapeXml(value)}"/>`,
    ),
    '    </properties>',
  ];
}

/** `suiteOf` names each case's suite; `seconds` is the run's time (each suite's as well); `run` goes on every suite. */
export function renderTestCasesJunit(
  title: string,
  cases: TestCase[],
  seconds: number,
  suiteOf: (c: TestCase) => string,
  run?: RunIdentity,
): string {
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
      ...propertiesXml(run),
      ...members.map(caseXml),
      '  </testsuite>',
    ]),
    '</testsuites>',
    '',
  ].join('\n');
}
