import { OverallStatus } from '../../contracts/index';
import { type Detail, GatewayError, RequestValidationError, SellerUnavailableError } from '../errors';

// The refusals of the gateway's self-protection, one type per kind. Those that a later
// retry can succeed carry retryAfterSeconds; error-response.ts sends it as Retry-After.

/** An error a buyer may retry after a known wait. */
export interface RetryableAfter {
  retryAfterSeconds: number;
}

export const retryAfterOf = (error: unknown): number | undefined => {
  const value = (error as Partial<RetryableAfter> | null)?.retryAfterSeconds;
  return typeof value === 'number' && Number.isFinite(value) ? Math.max(1, Math.ceil(value)) : undefined;
};

/** The body is larger than the gateway reads (GATEWAY_MAX_BODY_BYTES). */
export class PayloadTooLargeError extends GatewayError {
  readonly code = OverallStatus.ValidationError;
  readonly httpStatus = 413;
}

/** Too many items in an inquiry or lines in an order: a 4422 naming the limit. */
export class TooManyItemsError extends RequestValidationError {}

/** A member's circuit breaker is open: its seller failed repeatedly, the gateway does not call it for a while. */
export class SellerCircuitOpenError extends SellerUnavailableError implements RetryableAfter {
  retryAfterSeconds = 1;
  static after(retryAfterSeconds: number, message: string, details?: Detail[]): SellerCircuitOpenError {
    const error = new SellerCircuitOpenError(message, details);
    error.retryAfterSeconds = retryAfterSeconds;
    return error;
  }
}

/** A member's seller already has as many calls in flight as the gateway allows it. */
export class SellerBusyError extends SellerUnavailableError implements RetryableAfter {
  readonly retryAfterSeconds = 1;
}

/**
 * The gateway's own store cannot be reached: a dependency failing, not a bug (5503, 503).
 * The message says what became of the request (for an order: not placed, or state unknown).
 */
export class StoreUnavailableError extends GatewayError implements RetryableAfter {
  readonly code = OverallStatus.ServiceOffline;
  readonly httpStatus = 503;
  retryAfterSeconds = 5;
}

/** An API client over its request rate (429, Retry-After until the window resets). */
export class RateLimitedError extends GatewayError implements RetryableAfter {
  readonly code = OverallStatus.GeneralError;
  readonly httpStatus = 429;
  retryAfterSeconds = 1;
  static after(retryAfterSeconds: number, message: string): RateLimitedError {
    const error = new RateLimitedError(message, [{ path: 'header:Authorization', message: 'request rate over the limit' }]);
    error.retryAfterSeconds = retryAfterSeconds;
    return error;
  }
}
