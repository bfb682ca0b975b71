import { bodyLimitCheck } from '../../shared/http/body-limit';
import type { RequestCheck } from '../http/request-check';
import { PayloadTooLargeError } from './protection-errors';

// The gateway's body limit (GATEWAY_MAX_BODY_BYTES): the shared check, refusing in the gateway's error body.

export function requestBodyLimit(maxBytes: number): RequestCheck {
  return bodyLimitCheck(
    maxBytes,
    () =>
      new PayloadTooLargeError(
        `the request body is larger than ${maxBytes} bytes, the most this gateway accepts; send fewer items per request`,
        [{ path: '', message: `body larger than ${maxBytes} bytes` }],
      ),
  );
}
