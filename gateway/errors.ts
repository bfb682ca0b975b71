import { OverallStatus, type ErrorDetail } from '../contracts/index';

// One error type per failure kind, each with its overall code (common-codes.md) and HTTP
// status. Handlers throw these; app.onError (error-response.ts) is the one place that turns
// them into responses.

/** Contract ErrorDetail (an open object) with the context the gateway adds: which member, which item. */
export type Detail = ErrorDetail & { member?: string; id?: string };

export abstract class GatewayError extends Error {
  abstract readonly code: OverallStatus;
  abstract readonly httpStatus: number;
  readonly details?: Detail[];
  constructor(message: string, details?: Detail[]) {
    super(message);
    this.name = new.target.name;
    if (details !== undefined && details.length > 0) this.details = details;
  }
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

/** The buyer named an account the directory does not know at that member. */
export class InvalidAccountError extends GatewayError {
  readonly code = OverallStatus.InvalidAccount;
  readonly httpStatus = 422;
}

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

/** The seller answered, but not with a reply the contract allows (not JSON, wrong shape, broken rule). */
export class SellerReplyError extends GatewayError {
  readonly code = OverallStatus.SystemError;
  readonly httpStatus = 502;
}

/** A PO number or idempotency key whose first order is still being placed by another request. */
export class OrderInFlightError extends GatewayError {
  readonly code = OverallStatus.GeneralError;
  readonly httpStatus = 409;
}

/** Anything we did not foresee: a bug or a store failure, never a seller's fault. */
export class InternalError extends GatewayError {
  readonly code = OverallStatus.SystemError;
  readonly httpStatus = 500;
}
