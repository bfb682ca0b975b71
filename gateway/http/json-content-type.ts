import { RequestValidationError } from '../errors';
import type { RequestCheck } from './request-check';

const JSON_TYPE = /^application\/([\w.+-]+\+)?json\b/i;

/** A declared content type must be JSON (application/json or a +json type); none at all is taken as JSON. */
export const requireJsonContentType: RequestCheck = (c) => {
  const type = c.req.header('content-type');
  if (type !== undefined && !JSON_TYPE.test(type)) {
    throw new RequestValidationError(`content-type must be application/json, not '${type}'`, [
      { path: 'header:content-type', message: 'must be application/json' },
    ]);
  }
};
