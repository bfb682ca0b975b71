import type { ConformanceReport } from './conformance';
import { conformanceTestCases } from './conformance-test-cases';
import { renderTestCasesJunit } from '../reports/test-cases-junit';

// JUnit XML of an exploration: one testsuite per operation (and one for a stopped run), drawn
// from its test cases (conformance-test-cases.ts).
export function renderConformanceJunit(report: ConformanceReport): string {
  return renderTestCasesJunit(
    `seller-system exploration (seed ${report.seed})`,
    conformanceTestCases(report),
    report.elapsedMs / 1000,
    (c) => c.classname,
    report.run,
  );
}
