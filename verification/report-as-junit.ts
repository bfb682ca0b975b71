import type { VerificationReport } from './verification-report';
import type { TestCase } from './test-cases';
import { verificationTestCases } from './verification-test-cases';

// JUnit XML for CI: one test case per interaction; a failure lists Pact's mismatches and
// the broken reply rules with item id, path, expected and found.

export const escapeXml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');

/** One case as JUnit XML: a skipped case keeps its findings as text (a pending failure), the note goes to system-out. */
function caseXml(c: TestCase): string {
  const time = c.seconds.toFixed(3);
  const open = `    <testcase classname="${escapeXml(c.classname)}" name="${escapeXml(c.name)}" time="${time}"`;
  const note = c.note === undefined ? '' : `\n      <system-out>${escapeXml(c.note)}</system-out>`;
  const message = escapeXml(c.message ?? '');
  switch (c.status) {
    case 'passed':
      return note === '' ? `${open}/>` : `${open}>${note}\n    </testcase>`;
    case 'skipped':
      return c.detail === undefined
        ? `${open}>\n      <skipped message="${message}"/>${note}\n    </testcase>`
        : `${open}>\n      <skipped message="${message}">${escapeXml(c.detail)}</skipped>${note}\n    </testcase>`;
    case 'failed':
      return `${open}>\n      <failure message="${message}" type="${escapeXml(c.kind ?? 'reply-rules')}">${escapeXml(c.detail ?? '')}</failure>${note}\n    </testcase>`;
    case 'error':
      return `${open}>\n      <error type="${escapeXml(c.kind ?? 'stopped')}" message="${message}"/>\n    </testcase>`;
  }
}

export function renderJunit(report: VerificationReport, suiteName = 'seller-system verification'): string {
  const cases = verificationTestCases(report);
  const count = (status: TestCase['status']) => cases.filter((c) => c.status === status).length;
  const failures = count('failed');
  // A fatal run (no verdict at all) is an error without a case of its own.
  const errors = (report.fatal !== undefined ? 1 : 0) + count('error');
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${escapeXml(suiteName)}" tests="${cases.length}" failures="${failures}" errors="${errors}">`,
    `  <testsuite name="${escapeXml(suiteName)}" tests="${cases.length}" failures="${failures}" errors="${errors}" skipped="${count('skipped')}">`,
    ...cases.map(caseXml),
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
