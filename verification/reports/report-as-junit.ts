import type { VerificationReport } from './verification-report';
import type { TestCase } from './test-cases';
import { verificationTestCases } from './verification-test-cases';
import { caseXml, propertiesXml } from './test-cases-junit';
import { escapeXml } from './xml-text';

// JUnit XML for CI: one test case per interaction; a failure lists Pact's mismatches and
// the broken reply rules with item id, path, expected and found.

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
    ...propertiesXml(report.run),
    ...cases.map(caseXml),
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
