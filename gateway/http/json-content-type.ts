import { jsonContentType } from '../../shared/http/json-content-type';
import { refusalError } from '../errors';
import type { RequestCheck } from './request-check';

/** The toolkit's one content-type rule (shared/http/json-content-type.ts) as a gateway check: 415, 4422. */
export const requireJsonContentType: RequestCheck = (c) => {
  const refusal = jsonContentType(c);
  if (refusal !== undefined) throw refusalError(refusal);
};
