import type { TestCase } from '../reports/test-cases';
import { renderTestCasesJunit } from '../reports/test-cases-junit';
import type { OpenApiCheckReport, OpenApiFinding } from './check-openapi';

// JUnit XML of a check-openapi run: a testsuite of one case per pact interaction (failed when
// the document has a finding for it, each finding a line with its JSON path and both sides),
// and a testsuite of the reply rules no document can state, each a skipped case: proven only
// by `verify`.

const findingLine = (f: OpenApiFinding) => `${f.kind} ${f.path}: vendor: ${f.vendor}, contract: ${f.contract}`;

/** The report's test cases: interactions in the pact's order, then the rules only `verify` proves. */
export function openApiCheckTestCases(report: OpenApiCheckReport): TestCase[] {
  const interactions = report.interactionNames.map((name): TestCase => {
    const findings = report.findings.filter((f) => f.interaction === name);
    if (findings.length === 0) return { classname: 'check-openapi', name, seconds: 0, status: 'passed' };
    return {
      classname: 'check-openapi',
      name,
      seconds: 0,
      status: 'failed',
      kind: findings[0].kind,
      message: `${findings.length} finding${findings.length === 1 ? '' : 's'}: ${findingLine(findings[0])}`,
      detail: findings.map(findingLine).join('\n'),
    };
  });
  const rules = report.provenOnlyByVerify.map(({ rule, guards }): TestCase => ({
    classname: 'proven-only-by-verify',
    name: rule,
    seconds: 0,
    status: 'skipped',
    message: 'compares the reply with the request: no document can state it; proven only by `verify`',
    detail: guards,
  }));
  return [...interactions, ...rules];
}

export function renderOpenApiCheckJunit(report: OpenApiCheckReport): string {
  return renderTestCasesJunit(
    `check-openapi ${report.document} (${report.operation})`,
    openApiCheckTestCases(report),
    0,
    (c) => c.classname,
  );
}
