import { validators, type ValidationIssue } from '../../contracts/index';
import { RequestValidationError } from '../errors';

type BuyerOperation = 'item-inquiry' | 'place-order' | 'invoice' | 'statement';

const describe = (issues: ValidationIssue[]) =>
  issues.map((i) => `${i.path === '' ? 'body' : i.path} ${i.message}`).join('; ');

/**
 * The buyer's body against the contract schema, then the operation's request rules; every
 * problem is reported at once (4422), each with its JSON pointer.
 */
export function validBuyerRequest<T>(
  operation: BuyerOperation,
  body: unknown,
  rules: (request: T) => ValidationIssue[],
): T {
  const shape = validators[operation]['buyer-request'](body);
  const issues = shape.valid ? rules(body as T) : shape.errors;
  if (issues.length > 0) {
    throw new RequestValidationError(
      `the request is invalid: ${describe(issues)}`,
      issues.map(({ path, message }) => ({ path, message })),
    );
  }
  return body as T;
}
