import type { LoadReport } from './load-report';
import { loadTestCases } from './load-test-cases';
import { renderTestCasesJunit } from '../reports/test-cases-junit';

// JUnit XML of a load run, drawn from its test cases (load-test-cases.ts), in one suite.
export function renderLoadJunit(report: LoadReport): string {
  const seconds = report.steps.reduce((t, s) => t + s.seconds, 0);
  return renderTestCasesJunit(
    `seller-system load (seed ${report.seed})`,
    loadTestCases(report),
    seconds,
    () => 'load',
    report.run,
  );
}
