import { OverallStatus } from '../../contracts/index';
import { type Detail, GatewayError, RequestValidationError, SellerUnavailableError } from '../errors';

// The refusals of the gateway's self-protection, one type per kind. Those that a later
// retry can succeed carry retryAfterSeconds (HttpError); error-response.ts sends it as Retry-After.

/** The body is larger than the gateway reads (GATEWAY_MAX_BODY_BYTES). */
export class PayloadTooLargeError extends GatewayError {
  readonly code = OverallStatus.ValidationError;
  readonly httpStatus = 413;
}

/** Too many items in an inquiry or lines in an order: a 4422 naming the limit. */
export class TooManyItemsError extends RequestValidationError {}

/** A member's circuit breaker is open: its seller failed repeatedly, the gateway does not call it for a while. */
export class SellerCircuitOpenError extends SellerUnavailableError {
  static after(retryAfterSeconds: number, message: string, details?: Detail[]): SellerCircuitOpenError {
    return new SellerCircuitOpenError(message, details, { retryAfterSeconds });
  }
}

/** A member's seller already has as many calls in flight as the gateway allows it. */
export class SellerBusyError extends SellerUnavailableError {
  override retryAfterSeconds = 1;
}

/** An API client over its request rate (429, Retry-After until the window resets). */
export class RateLimitedError extends GatewayError {
  readonly code = OverallStatus.GeneralError;
  readonly httpStatus = 429;
  static after(retryAfterSeconds: number, message: string): RateLimitedError {
    return new RateLimitedError(message, [{ path: 'header:Authorization', message: 'request rate over the limit' }], {
      retryAfterSeconds,
    });
  }
}
