import type { ValidationIssue } from '../contracts/index';
import { HttpError } from '../shared/http/http-error';

// One error type per failure kind, on the toolkit's one base (HttpError, which carries the
// status); app.ts maps them to responses in one place.

/** A mock seller failure: its status, and the issues (JSON path, rule) when there are any. */
export abstract class MockSellerError extends HttpError {
  constructor(
    message: string,
    readonly issues?: ValidationIssue[],
  ) {
    super(message);
  }
}

/** A scenario that fails its schema or refers to things it does not define. */
export class ScenarioError extends MockSellerError {
  readonly httpStatus = 400;
  declare readonly issues: ValidationIssue[];
  constructor(message: string, issues: ValidationIssue[]) {
    super(message, issues);
  }
}

/** A request to the mock seller (seller endpoint or control API) that it cannot act on. */
export class BadRequestError extends MockSellerError {
  readonly httpStatus = 400;
  declare readonly issues: ValidationIssue[];
  constructor(message: string, issues: ValidationIssue[] = []) {
    super(message, issues);
  }
}

/** Something named in the path that does not exist (a fault rule, a document). */
export class UnknownResourceError extends MockSellerError {
  readonly httpStatus = 404;
}

/** A shared request guard's refusal (415 content type, 403 cross-site); the issue's keyword is the rule. */
export class RequestRefusedError extends MockSellerError {
  declare readonly issues: ValidationIssue[];
  constructor(
    readonly httpStatus: number,
    message: string,
    issues: ValidationIssue[],
  ) {
    super(message, issues);
  }
}
