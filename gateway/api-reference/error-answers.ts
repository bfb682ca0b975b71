// The error answers the gateway and the internal API document, one per status, each with an
// example body of the schema the surface really sends (http/error-response.ts,
// internal-api/internal-api-errors.ts). Which operation gives which is in the documents.
import { DOCUMENT_STATUS_ERROR, OverallStatus } from '../../contracts/index';
import type { ErrorAnswer } from '../../contracts/openapi-builder';

const reply = (status_code: OverallStatus, message: string, path = '', detail = message) => ({
  status_code,
  message,
  errors: [{ path, message: detail }],
});

/** Invoices and statements answer failures in their own envelope, the gateway's fields beside it. */
export const envelopeExample = (
  envelope: 'invoices' | 'statements',
  example: { status_code: number; message: string },
) => ({
  status: DOCUMENT_STATUS_ERROR,
  error_description: `Validation error: ${example.message}`,
  [envelope]: [],
  ...example,
});

export function errorAnswer(
  schema: string,
  status: number,
  description: string,
  example: unknown,
  retryAfter = false,
): ErrorAnswer {
  return { schema, description: `${description} (HTTP ${status})`, example, retryAfter };
}

/** The gateway's answers by status, in GatewayErrorReply. */
export const GATEWAY_ERRORS = {
  401: () =>
    errorAnswer(
      'GatewayErrorReply',
      401,
      'Not authenticated: token missing, bad or expired (status_code 4403)',
      reply(OverallStatus.AccessDenied, 'missing bearer token: send Authorization: Bearer <JWT>'),
    ),
  403: () =>
    errorAnswer(
      'GatewayErrorReply',
      403,
      "Not allowed for this buyer: another buyer's thing (4403), a location not theirs (3110), or a location or member whose member is not live — pending certification or suspended (3110, rule `member.not-live`; nothing was sent to the seller)",
      reply(OverallStatus.LocationNotAllowed, "location 'L999' is not one of your locations", '/locations/0/id'),
    ),
  404: (what: string) =>
    errorAnswer('GatewayErrorReply', 404, `Not found: ${what} (status_code 3000)`, {
      status_code: OverallStatus.GeneralError,
      message: `${what} does not exist`,
    }),
  409: () =>
    errorAnswer(
      'GatewayErrorReply',
      409,
      'The purchase order number is already used by an order with another body (status_code 4422, naming the first differing field), or its first order is still being placed (status_code 3000)',
      reply(
        OverallStatus.GeneralError,
        "purchase order 'PO-2026-0042' is already being placed",
        '/purchase_order_number',
        'in use',
      ),
    ),
  413: () =>
    errorAnswer(
      'GatewayErrorReply',
      413,
      'The body is larger than GATEWAY_MAX_BODY_BYTES (status_code 4422)',
      reply(
        OverallStatus.ValidationError,
        'the request body is larger than 1048576 bytes, the most this gateway accepts',
        '',
        'body larger than 1048576 bytes',
      ),
    ),
  415: () =>
    errorAnswer(
      'GatewayErrorReply',
      415,
      'The content type is not application/json (status_code 4422)',
      reply(
        OverallStatus.ValidationError,
        "content-type must be application/json, not 'text/plain'",
        'header:content-type',
        'must be application/json',
      ),
    ),
  422: () =>
    errorAnswer(
      'GatewayErrorReply',
      422,
      'Validation error naming every field at fault (status_code 4422, or 3100 for an unknown location)',
      reply(
        OverallStatus.ValidationError,
        'the request does not match the contract',
        '/items/0/part_number',
        'must be string',
      ),
    ),
  429: () =>
    errorAnswer(
      'GatewayErrorReply',
      429,
      "Over a rate limit: the API client's requests, or this address's failed authentications (GATEWAY_AUTH_FAILURE_LIMIT); retry after Retry-After seconds (status_code 3000)",
      reply(
        OverallStatus.GeneralError,
        "API client 'dev-client' made more than 600 requests in this window; retry after 12 s",
        'header:Authorization',
        'request rate over the limit',
      ),
      true,
    ),
  502: () =>
    errorAnswer(
      'GatewayErrorReply',
      502,
      "The seller's reply broke the contract (status_code 5500)",
      reply(
        OverallStatus.SystemError,
        "the seller of member 'M100' answered with a reply the contract does not allow",
        '/items/0/id',
        'unknown id',
      ),
    ),
  503: () =>
    errorAnswer(
      'GatewayErrorReply',
      503,
      "The seller is offline, its circuit breaker is open or busy, or the gateway's store is down (status_code 5503)",
      reply(
        OverallStatus.ServiceOffline,
        "the seller of member 'M100' cannot be reached",
        '',
        'dependency down: seller',
      ),
      true,
    ),
  storeDown: () =>
    errorAnswer(
      'GatewayErrorReply',
      503,
      "The gateway's store is down (status_code 5503)",
      reply(
        OverallStatus.ServiceOffline,
        'the gateway cannot reach its database, so the request was not carried out; retry shortly',
        '',
        'dependency down: store',
      ),
      true,
    ),
  504: () =>
    errorAnswer(
      'GatewayErrorReply',
      504,
      'The seller did not answer in time (status_code 4408)',
      reply(OverallStatus.Timeout, "the seller of member 'M100' did not answer within 10000 ms"),
    ),
} as const;
