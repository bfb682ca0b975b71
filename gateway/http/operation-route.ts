import type { Context, Handler } from 'hono';
import { bodyNotJson } from '../errors';
import { readJsonBody } from '../../shared/http/json-body';
import type { BuyerReplyOperation, BuyerReplyWriters } from '../float-json/buyer-reply-json';
import type { OperationInput, OperationResult } from '../operations/operation-deps';
import type { ErrorEnvelope, GatewayEnv } from './gateway-env';
import { answerIn, type Answer } from './pipeline';
import type { RequestCheck } from './request-check';
import { replyWithHeaders } from './reply-headers';

// A buyer operation's HTTP edge: the route's own checks (authentication and rate limit), the
// body handed to the operation, the reply written with the float-aware writer. The gateway's
// pipeline runs around it (app.ts mounts it, in its own handler or behind Hono middleware, as
// gateway/speedups/ chooses); any failure goes through the one error mapper. Everything else
// lives in gateway/operations/.

export type Operation = (input: OperationInput) => Promise<OperationResult>;

export interface OperationEdge {
  /** The route's own checks after the pipeline's, before the body is read. */
  checks: RequestCheck;
  /** Buyer headers that travel on to the seller. */
  forwardHeaders: string[];
  /** The buyer reply writers (gateway/speedups/). */
  writers: BuyerReplyWriters;
}

function sellerHeaders(c: Context<GatewayEnv>, names: string[]): Record<string, string> | undefined {
  let headers: Record<string, string> | undefined;
  for (const name of names) {
    const value = c.req.header(name);
    if (value !== undefined) (headers ??= {})[name] = value;
  }
  return headers;
}

/** The operation's answer in stages, for the pipeline to run (http/pipeline.ts). */
export function operationAnswer(name: BuyerReplyOperation, operation: Operation, edge: OperationEdge): Answer {
  const write = edge.writers[name];

  const inputOf = (c: Context<GatewayEnv>, body: unknown): OperationInput => ({
    buyer: c.get('buyer'),
    body,
    requestId: c.get('requestId'),
    idempotencyKey: c.req.header('idempotency-key'),
    sellerHeaders: edge.forwardHeaders.length === 0 ? undefined : sellerHeaders(c, edge.forwardHeaders),
  });

  function reply(c: Context<GatewayEnv>, result: OperationResult): Response {
    const log = c.get('log');
    if (result.log !== undefined) Object.assign(log, result.log);
    const headers: Record<string, string> = { 'content-type': 'application/json; charset=UTF-8' };
    if (result.warnings.length > 0) {
      // Lenient members: the reply goes through, the buyer and the log are told what it broke.
      headers['x-contract-warning'] = result.warnings.join('; ');
      log.warnings = result.warnings;
    }
    if (result.replayed === true) {
      headers['idempotent-replayed'] = 'true';
      log.replayed = true;
    }
    const body = result.reply as { status_code?: unknown; status?: unknown };
    if (body.status_code !== undefined) log.status_code = body.status_code;
    else log.status = body.status;
    return replyWithHeaders(c, write(result.reply), result.httpStatus, headers);
  }

  return answerIn(
    (c) => edge.checks(c),
    (c) => readJsonBody(c, bodyNotJson),
    (c, body) => operation(inputOf(c, body)),
    reply,
  );
}

/**
 * Sets the envelope failures answer in (invoices and statements have their own) before any
 * step runs, so a refusal of the body limit answers in it too; `next` then runs the route.
 */
export function inEnvelope(envelope: ErrorEnvelope, route: Handler<GatewayEnv>): Handler<GatewayEnv> {
  if (envelope === 'gateway') return route;
  return (c, next) => {
    c.set('envelope', envelope);
    return route(c, next);
  };
}
