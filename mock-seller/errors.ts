import type { ValidationIssue } from '../contracts/index';

// One error type per failure kind; app.ts maps them to responses in one place.

/** A scenario that fails its schema or refers to things it does not define. */
export class ScenarioError extends Error {
  constructor(message: string, readonly issues: ValidationIssue[]) {
    super(message);
    this.name = 'ScenarioError';
  }
}

/** A request to the mock seller (seller endpoint or control API) that it cannot act on. */
export class BadRequestError extends Error {
  constructor(message: string, readonly issues: ValidationIssue[] = []) {
    super(message);
    this.name = 'BadRequestError';
  }
}

/** Something named in the path that does not exist (a fault rule, a document). */
export class NotFoundError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NotFoundError';
  }
}
