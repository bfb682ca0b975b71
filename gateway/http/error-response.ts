import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { OVERALL_STATUS_MEANING, type GatewayErrorReply } from '../../contracts/index';
import { GatewayError, InternalError } from '../errors';
import type { GatewayEnv } from './gateway-env';
import { retryAfterOf, StoreUnavailableError } from '../protection/protection-errors';
import { isStoreUnreachable } from '../store/store-outage';

const storeUnavailable = () =>
  new StoreUnavailableError('the gateway cannot reach its database, so the request was not carried out; retry shortly', [{ path: '', message: 'dependency down: store' }]);

// The one place failures become responses. Item inquiry and place order answer with the
// contract's GatewayErrorReply; invoice and statement keep their own envelope (status other
// than "success", error_description) and carry the overall code and details beside it.

export const DOCUMENT_STATUS_ERROR = 'error';

/** The contract's error body for a gateway error; also what an order records as its answer. */
export function errorReply(error: GatewayError): GatewayErrorReply {
  const reply: GatewayErrorReply = { status_code: error.code, message: error.message };
  if (error.details !== undefined) reply.errors = error.details;
  return reply;
}

export function errorResponse(error: unknown, c: Context<GatewayEnv>): Response {
  const known = error instanceof GatewayError ? error : isStoreUnreachable(error) ? storeUnavailable() : new InternalError('the gateway failed unexpectedly; the request id identifies it in the log');
  const log = c.get('log');
  if (log !== undefined) {
    log.status_code = known.code;
    log.error = known.message;
    if (!(error instanceof GatewayError)) log.cause = error instanceof Error ? (error.stack ?? error.message) : String(error);
  }
  const reply = errorReply(known);
  const retryAfter = retryAfterOf(known);
  if (retryAfter !== undefined) c.header('Retry-After', String(retryAfter));
  const status = known.httpStatus as ContentfulStatusCode;
  const envelope = c.get('envelope') ?? 'gateway';
  if (envelope === 'gateway') return c.json(reply, status);
  const description = `${OVERALL_STATUS_MEANING[known.code]}: ${known.message}`;
  return c.json({ status: DOCUMENT_STATUS_ERROR, error_description: description, [envelope]: [], ...reply }, status);
}
