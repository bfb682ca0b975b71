// A report as a list of test cases: the one shape the CI forms (JUnit XML, CTRF JSON) are drawn
// from, so both say the same thing — what failed, what was skipped, and why.

import type { RunIdentity } from './run-identity';

export type TestCaseStatus = 'passed' | 'failed' | 'skipped' | 'error';

export interface TestCase {
  /** The suite's part, e.g. 'load' or 'slo'. */
  classname: string;
  name: string;
  seconds: number;
  status: TestCaseStatus;
  /** A failure's or an error's type (JUnit), e.g. the broken rule; the classname when absent. */
  kind?: string;
  /** One line: why it failed, was skipped, or errored. */
  message?: string;
  /** Detail lines (figures, rules, commands). */
  detail?: string;
  /** Output every CI shows and none counts (JUnit system-out), beside any verdict. */
  note?: string;
}

/** A report's test cases with the run they came from, so every CI form drawn from them names what was judged. */
export type TestCaseList = TestCase[] & { run?: RunIdentity };

export const withRun = (cases: TestCase[], run: RunIdentity | undefined): TestCaseList =>
  run === undefined ? cases : Object.assign(cases, { run });
