import { OverallStatus } from '../../contracts/index';
import { GatewayError, RequestValidationError } from '../errors';

// gateway/errors.ts has no "not found" kind; the catalog needs one (unknown SKU, cart).
// It is a GatewayError, so error-response.ts maps it like every other failure.

/** The thing named in the path or body does not exist. */
export class NotFoundError extends GatewayError {
  readonly code = OverallStatus.GeneralError;
  readonly httpStatus = 404;
}

/** A 4422 naming one field: the body was well-formed but names something that cannot be used. */
export const invalidField = (path: string, message: string) =>
  new RequestValidationError(`${path.slice(1).replace(/\//g, '.')} ${message}`, [{ path, message }]);
