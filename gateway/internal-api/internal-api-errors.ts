import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { OverallStatus, type ErrorDetail } from '../../contracts/index';
import { retryAfterOf } from '../../shared/http/http-error';
import { EMPTY_BODY, notJsonMessage } from '../../shared/http/json-body';
import { AuthenticationError, errorReply, GatewayError, InternalError } from '../errors';
import { knownError } from '../http/error-response';
import { AddressServiceUnavailable } from '../address/address-validator';

// The internal API's failure kinds and the one place they become responses. The body is
// the contract's GatewayErrorReply: {status_code, message, errors}.

/** The specification's messages for create-user errors (all HTTP 400), in its table's order. */
export const CreateUserMessage = {
  InvalidCatalogRegion: 'Invalid catalog region id',
  UsernameTaken: 'Username already exists',
  EmailTaken: 'Email already exists',
  InvalidAddress: 'Invalid address',
  InvalidLocations: 'Invalid user locations',
} as const;
export type CreateUserMessage = (typeof CreateUserMessage)[keyof typeof CreateUserMessage];
const SPEC_ORDER: readonly CreateUserMessage[] = Object.values(CreateUserMessage);

/** One thing wrong with a create-user request. */
export interface RequestProblem {
  /** JSON pointer of the field at fault; '' for the whole body. */
  path: string;
  /** The specification's message when one applies. */
  spec?: CreateUserMessage;
  /** What exactly is wrong, naming the value or rule. */
  detail?: string;
}

const detailOf = (p: RequestProblem): ErrorDetail => ({
  path: p.path,
  message: p.spec ? (p.detail ? `${p.spec}: ${p.detail}` : p.spec) : `${p.path || 'body'} ${p.detail ?? 'is invalid'}`,
});

/**
 * Every problem found with a request, reported together (HTTP 400). The top-level message
 * is the specification's message of the first problem that has one, in the order of the
 * specification's error table; otherwise it names the offending fields.
 */
export class CreateUserRejected extends GatewayError {
  readonly code = OverallStatus.ValidationError;
  readonly httpStatus = 400;
  readonly problems: RequestProblem[];
  constructor(problems: RequestProblem[]) {
    const spec = SPEC_ORDER.find((m) => problems.some((p) => p.spec === m));
    const details = problems.map(detailOf);
    const listed = details
      .slice(0, 5)
      .map((d) => d.message)
      .join('; ');
    const more = details.length > 5 ? ` (and ${details.length - 5} more)` : '';
    super(spec ?? `Invalid request: ${listed}${more}`, details);
    this.problems = problems;
  }
}

/** Any other internal request refused (a key the directory refused, an outbox filter): 400 with its message. */
export class InternalRequestRejected extends GatewayError {
  readonly code = OverallStatus.ValidationError;
  readonly httpStatus = 400;
}

/** The thing named in the path does not exist (an unknown member, location or account): 404. */
export class InternalNotFound extends GatewayError {
  readonly code = OverallStatus.GeneralError;
  readonly httpStatus = 404;
}

/** The write conflicts with what is stored (an id taken, a status the action does not apply to): 409. */
export class InternalConflict extends GatewayError {
  readonly code = OverallStatus.GeneralError;
  readonly httpStatus = 409;
}

/** How the internal API refuses a body that is not JSON (readJsonBody's NotJson). */
export const internalBodyNotJson = (reason: string): InternalRequestRejected =>
  new InternalRequestRejected(notJsonMessage(reason), [
    { path: '', message: reason === EMPTY_BODY ? 'required' : 'not valid JSON' },
  ]);

/** The address provider gave no verdict: not the caller's fault, worth retrying later. */
export class AddressValidationUnavailableError extends GatewayError {
  readonly code = OverallStatus.ServiceOffline;
  readonly httpStatus = 503;
}

export function internalErrorResponse(error: unknown, c: Context, log: (line: string) => void): Response {
  let known: GatewayError;
  if (error instanceof AddressServiceUnavailable) {
    known = new AddressValidationUnavailableError('address validation is unavailable; try again later');
    log(`internal-api: ${error.message}`);
  } else {
    known = knownError(error, 'the internal API failed unexpectedly; see its log');
    if (known instanceof InternalError)
      log(
        `internal-api: ${c.req.method} ${c.req.path} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
  }
  const reply = errorReply(known);
  const retryAfter = retryAfterOf(known);
  if (retryAfter !== undefined) c.header('Retry-After', String(retryAfter));
  if (known instanceof AuthenticationError) c.header('WWW-Authenticate', 'Bearer realm="internal"');
  return c.json(reply, known.httpStatus as ContentfulStatusCode);
}
