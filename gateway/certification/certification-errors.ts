import { OverallStatus } from '../../contracts/index';
import { GatewayError } from '../errors';

// Why a certification was refused, each with its HTTP status; the internal API's error handler
// turns them into the contract's error body, naming the field or rule at fault.

/** No member, job or certificate by that id: 404 (status_code 3000). */
export class CertificationNotFound extends GatewayError {
  readonly code = OverallStatus.GeneralError;
  readonly httpStatus = 404;
}

/** The member's state forbids it (suspended): 409 (status_code 4422), the rule named. */
export class CertificationConflict extends GatewayError {
  readonly code = OverallStatus.ValidationError;
  readonly httpStatus = 409;
}

/** The member's stored data cannot be certified with (no state map, one that is not one, bad SLOs): 422. */
export class CertificationInputRejected extends GatewayError {
  readonly code = OverallStatus.ValidationError;
  readonly httpStatus = 422;
}

/** A request parameter or body that is not one (a job id that is no number, an unknown filter): 400. */
export class CertificationRequestInvalid extends GatewayError {
  readonly code = OverallStatus.ValidationError;
  readonly httpStatus = 400;
}
