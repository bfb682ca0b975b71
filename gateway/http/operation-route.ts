import type { Context, Handler } from 'hono';
import { bodyNotJson } from '../errors';
import { readJsonBody } from '../../contracts/http/json-body';
import { buyerReplyJson, type BuyerReplyOperation } from '../float-json/buyer-reply-json';
import type { OperationInput, OperationResult } from '../operations/operation-deps';
import type { GatewayEnv } from './gateway-env';
import { replyWithHeaders } from './reply-headers';

// The thin HTTP edge of an operation: read the body, hand it over, write the reply with the
// float-aware serializer. Everything else lives in gateway/operations/.

export type Operation = (input: OperationInput) => Promise<OperationResult>;

function sellerHeaders(c: Context<GatewayEnv>, names: string[]): Record<string, string> | undefined {
  let headers: Record<string, string> | undefined;
  for (const name of names) {
    const value = c.req.header(name);
    if (value !== undefined) (headers ??= {})[name] = value;
  }
  return headers;
}

export function operationRoute(name: BuyerReplyOperation, operation: Operation, forwardHeaders: string[] = []): Handler<GatewayEnv> {
  const write = buyerReplyJson[name];
  return async (c) => {
    const result = await operation({
      buyer: c.get('buyer'),
      body: await readJsonBody(c, bodyNotJson),
      requestId: c.get('requestId'),
      idempotencyKey: c.req.header('idempotency-key'),
      sellerHeaders: forwardHeaders.length === 0 ? undefined : sellerHeaders(c, forwardHeaders),
    });
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
    const reply = result.reply as { status_code?: unknown; status?: unknown };
    if (reply.status_code !== undefined) log.status_code = reply.status_code;
    else log.status = reply.status;
    return replyWithHeaders(c, write(result.reply), result.httpStatus, headers);
  };
}
