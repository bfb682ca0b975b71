import { OverallStatus, type ErrorDetail, type GatewayErrorReply } from '../contracts/index';
import { HttpError } from '../shared/http/http-error';
import { EMPTY_BODY, notJsonMessage } from '../shared/http/json-body';
import type { RequestRefusal } from '../shared/http/request-guard';
import { STORE_RETRY_AFTER_SECONDS } from './store/store-outage';

// One error type per failure kind, each with its overall code (common-codes.md) and HTTP
// status. Handlers throw these; app.onError (error-response.ts) is the one place that turns
// them into responses.

/** Contract ErrorDetail (an open object) with the context the gateway adds: which member, which item. */
export type Detail = ErrorDetail & { member?: string; id?: string };

export abstract class GatewayError extends HttpError {
  abstract readonly code: OverallStatus;
  readonly details?: Detail[];
  /** Why, for the log line only: a reason the caller must not learn (error-response.ts logs it, never sends it). */
  readonly logReason?: string;
  constructor(message: string, details?: Detail[], options?: { retryAfterSeconds?: number; logReason?: string }) {
    super(message, options);
    if (details !== undefined && details.length > 0) this.details = details;
    if (options?.logReason !== undefined) this.logReason = options.logReason;
  }
}

/** The contract's error body for a gateway error; also what an order records as its answer. */
export function errorReply(error: GatewayError): GatewayErrorReply {
  const reply: GatewayErrorReply = { status_code: error.code, message: error.message };
  if (error.details !== undefined) reply.errors = error.details;
  return reply;
}

/** The caller could not be authenticated (token missing, bad, expired, unknown key, …). */
export class AuthenticationError extends GatewayError {
  readonly code = OverallStatus.AccessDenied;
  readonly httpStatus = 401;
}

/** An authenticated buyer asked for something that is not theirs (another buyer's account). */
export class AccessDeniedError extends GatewayError {
  readonly code = OverallStatus.AccessDenied;
  readonly httpStatus = 403;
}

/** The body breaks the contract schema or a request rule; details name every path. */
export class RequestValidationError extends GatewayError {
  readonly code = OverallStatus.ValidationError;
  readonly httpStatus = 422;
}

/** How the buyer endpoints refuse a body that is not JSON (readJsonBody's NotJson). */
export const bodyNotJson = (reason: string): RequestValidationError =>
  new RequestValidationError(notJsonMessage(reason), [
    { path: '', message: reason === EMPTY_BODY ? 'required' : 'not valid JSON' },
  ]);

/** The body is not declared as application/json (rule request.content-type): 415 with a 4422. */
export class UnsupportedMediaTypeError extends GatewayError {
  readonly code = OverallStatus.ValidationError;
  readonly httpStatus = 415;
}

/** A browser sent the request from another origin (rule request.cross-site): 403 with a 4403. */
export class CrossSiteRequestError extends GatewayError {
  readonly code = OverallStatus.AccessDenied;
  readonly httpStatus = 403;
}

/** A shared request guard's refusal (shared/http/request-guard.ts) as the gateway's error, naming the rule. */
export function refusalError({ status, rule, field, detail, message }: RequestRefusal): GatewayError {
  const details = [{ path: field, message: detail, rule }];
  return status === 415 ? new UnsupportedMediaTypeError(message, details) : new CrossSiteRequestError(message, details);
}

/** A location that does not exist anywhere in the directory. */
export class InvalidLocationError extends GatewayError {
  readonly code = OverallStatus.InvalidLocation;
  readonly httpStatus = 422;
}

/** A location that exists but is not the buyer's (or not with that member/account, or not orderable). */
export class LocationNotAllowedError extends GatewayError {
  readonly code = OverallStatus.LocationNotAllowed;
  readonly httpStatus = 403;
}

/**
 * A location or member the buyer named whose member is not live: pending (not yet certified) or
 * suspended by an operator. Nothing was sent to its seller (3110, rule member.not-live).
 */
export class MemberNotServingError extends LocationNotAllowedError {}

/** The seller did not answer within the deadline. */
export class SellerTimeoutError extends GatewayError {
  readonly code = OverallStatus.Timeout;
  readonly httpStatus = 504;
}

/** The seller could not be reached (refused, reset) or answered HTTP 5xx. */
export class SellerUnavailableError extends GatewayError {
  readonly code = OverallStatus.ServiceOffline;
  readonly httpStatus = 503;
}

/** The seller could not be connected to at all (refused, no such host): it never saw the request. */
export class SellerNotReachedError extends SellerUnavailableError {}

/** The seller answered HTTP 503: by HTTP's meaning it did not handle the request (maintenance, overload). */
export class SellerDeclinedError extends SellerUnavailableError {}

/** The seller answered, but not with a reply the contract allows (not JSON, wrong shape, broken rule). */
export class SellerReplyError extends GatewayError {
  readonly code = OverallStatus.SystemError;
  readonly httpStatus = 502;
}

/**
 * The seller answered HTTP 4xx: it refused what we sent and did not act on it (a contract
 * mismatch between gateway and seller), so an order refused this way was certainly not placed.
 */
export class SellerRefusedError extends SellerReplyError {}

/**
 * The seller's URL or the address its name resolved to is refused in production (an internal
 * or metadata address, not https): the gateway made no connection, so nothing was sent.
 */
export class SellerAddressRefusedError extends SellerReplyError {}

/**
 * The gateway's own store cannot be reached: a dependency failing, not a bug (5503, 503).
 * The message says what became of the request (for an order: not placed, or state unknown).
 */
export class StoreUnavailableError extends GatewayError {
  readonly code = OverallStatus.ServiceOffline;
  readonly httpStatus = 503;
  override retryAfterSeconds = STORE_RETRY_AFTER_SECONDS;
}

/** A PO number or idempotency key whose first order is still being placed by another request. */
export class OrderInFlightError extends GatewayError {
  readonly code = OverallStatus.GeneralError;
  readonly httpStatus = 409;
}

/**
 * A purchase order number (or Idempotency-Key) reused with a different order while the first
 * stands: 409 with 4422, naming the first field that differs, never the first order's answer.
 */
export class OrderConflictError extends GatewayError {
  readonly code = OverallStatus.ValidationError;
  readonly httpStatus = 409;
}

/** The thing named in the path or body does not exist (a catalog SKU, a cart). */
export class NotFoundError extends GatewayError {
  readonly code = OverallStatus.GeneralError;
  readonly httpStatus = 404;
}

/** A refusal Hono itself raised (HTTPException: a body limit, a malformed request) with its own status. */
export class HttpRefusalError extends GatewayError {
  readonly code: OverallStatus;
  constructor(
    readonly httpStatus: number,
    message: string,
  ) {
    super(message);
    this.code = httpStatus < 500 ? OverallStatus.ValidationError : OverallStatus.SystemError;
  }
}

/** Anything we did not foresee: a bug or a store failure, never a seller's fault. */
export class InternalError extends GatewayError {
  readonly code = OverallStatus.SystemError;
  readonly httpStatus = 500;
}
