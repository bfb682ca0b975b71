import type { Context, Handler } from 'hono';
import { bodyNotJson } from '../errors';
import { readJsonBody } from '../../shared/http/json-body';
import { buyerReplyJson, type BuyerReplyOperation } from '../float-json/buyer-reply-json';
import type { OperationInput, OperationResult } from '../operations/operation-deps';
import type { ErrorEnvelope, GatewayEnv } from './gateway-env';
import { answerIn, pipelineHandler, type PipelineStep } from './pipeline';
import type { RequestCheck } from './request-check';
import { replyWithHeaders } from './reply-headers';

// A buyer operation's whole HTTP edge in one handler: the gateway's pipeline (the same list of
// steps other routes get as Hono middleware, gateway-pipeline.ts), the route's own checks
// (authentication and rate limit), the body handed to the operation, the reply written with
// the float-aware writer, any failure through the one error mapper. The four operations are
// the gateway's hot path: each alone on its path and always answering, so no middleware chain
// runs for them (it cost a promise and a closure per layer, and every check awaited even when
// it had nothing to wait for). Everything else lives in gateway/operations/.

export type Operation = (input: OperationInput) => Promise<OperationResult>;

export interface OperationEdge {
  /** The gateway's pipeline (gateway-pipeline.ts), run around the operation. */
  steps: readonly PipelineStep[];
  /** The route's own checks after the pipeline's, before the body is read. */
  checks: RequestCheck;
  /** Buyer headers that travel on to the seller. */
  forwardHeaders: string[];
}

function sellerHeaders(c: Context<GatewayEnv>, names: string[]): Record<string, string> | undefined {
  let headers: Record<string, string> | undefined;
  for (const name of names) {
    const value = c.req.header(name);
    if (value !== undefined) (headers ??= {})[name] = value;
  }
  return headers;
}

/** Invoices and statements answer failures in their own envelope; the others in the gateway's. */
export function operationRoute(
  name: BuyerReplyOperation,
  operation: Operation,
  edge: OperationEdge,
  envelope: ErrorEnvelope = 'gateway',
): Handler<GatewayEnv> {
  const write = buyerReplyJson[name];

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

  const answer = answerIn(
    (c) => edge.checks(c),
    (c) => readJsonBody(c, bodyNotJson),
    (c, body) => operation(inputOf(c, body)),
    reply,
  );
  const run = pipelineHandler(edge.steps, answer);
  // The envelope is known before any step runs: a refusal of the body limit answers in it too.
  if (envelope === 'gateway') return run;
  return (c, next) => {
    c.set('envelope', envelope);
    return run(c, next);
  };
}
