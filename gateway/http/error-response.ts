import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { DOCUMENT_STATUS_ERROR, OVERALL_STATUS_MEANING } from '../../contracts/index';
import { HTTPException } from 'hono/http-exception';
import { errorReply, GatewayError, HttpRefusalError, InternalError, StoreUnavailableError } from '../errors';
import { retryAfterOf } from '../../shared/http/http-error';
import type { GatewayEnv } from './gateway-env';
import { isStoreUnreachable } from '../store/store-outage';

const storeUnavailable = () =>
  new StoreUnavailableError(
    'the gateway cannot reach its database, so the request was not carried out; retry shortly',
    [{ path: '', message: 'dependency down: store' }],
  );

// The one place failures become responses. Item inquiry and place order answer with the
// contract's GatewayErrorReply; invoice and statement keep their own envelope (status other
// than "success", error_description) and carry the overall code and details beside it.

/**
 * What a thrown value means to the caller: our own errors as
 * they are, Hono's refusals with their status, the rest a 500.
 */
export function knownError(error: unknown, unexpected: string): GatewayError {
  if (error instanceof GatewayError) return error;
  if (error instanceof HTTPException)
    return new HttpRefusalError(error.status, error.message || `the request was refused (HTTP ${error.status})`);
  if (isStoreUnreachable(error)) return storeUnavailable();
  return new InternalError(unexpected);
}

export function errorResponse(error: unknown, c: Context<GatewayEnv>): Response {
  const known = knownError(error, 'the gateway failed unexpectedly; the request id identifies it in the log');
  const log = c.get('log');
  if (log !== undefined) {
    log.status_code = known.code;
    log.error = known.message;
    if (known.logReason !== undefined) log.reason = known.logReason;
    if (!(error instanceof GatewayError))
      log.cause = error instanceof Error ? (error.stack ?? error.message) : String(error);
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
