import { RequestValidationError } from '../errors';

/** A 4422 naming one field: the body was well-formed but names something that cannot be used. */
export const invalidField = (path: string, message: string) =>
  new RequestValidationError(`${path.slice(1).replace(/\//g, '.')} ${message}`, [{ path, message }]);
