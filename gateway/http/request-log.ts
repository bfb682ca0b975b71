import { writeSync } from 'node:fs';
import type { Context, MiddlewareHandler } from 'hono';
import type { ErrorEnvelope, GatewayEnv } from './gateway-env';
import { withReplyHeaders } from './reply-headers';

/** Receives one structured entry per request; tests pass a collector or a no-op. */
export type Logger = (entry: Record<string, unknown>) => void;

/**
 * Lines are gathered and written once per event-loop turn (or every 64 KB): a write per line
 * costs several times a batched line (docs/performance.md, "The request log's batched writes").
 * A line waits at most one turn; any still pending when the process exits is written synchronously then.
 */
export function batchedLineWriter(write: (text: string) => void, writeAtExit: (text: string) => void = write, maxPending = 65_536): (line: string) => void {
  let pending = '';
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (pending === '') return;
    const text = pending;
    pending = '';
    write(text);
  };
  process.once('exit', () => {
    if (pending !== '') writeAtExit(pending);
    pending = '';
  });
  return (line) => {
    pending += line;
    if (pending.length >= maxPending) flush();
    else if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  };
}

let stdoutLines: ((line: string) => void) | undefined;

export const jsonLineLogger: Logger = (entry) => {
  stdoutLines ??= batchedLineWriter(
    (text) => process.stdout.write(text),
    (text) => writeSync(1, text),
  );
  stdoutLines(`${JSON.stringify(entry)}\n`);
};

// A caller's own request id is kept when it looks like an id, so traces join up across systems.
const USABLE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export interface RequestLog {
  /** First thing for every request: its id (echoed), its log fields, its reply headers; returns when it started. */
  begin(c: Context<GatewayEnv>, envelope?: ErrorEnvelope): number;
  /** Last thing: the response with the gathered reply headers, and one log line. */
  end(c: Context<GatewayEnv>, started: number, response: Response): Response;
}

/**
 * Assigns the request id, echoes it, and writes one log line when the response is ready.
 * With no logger (GATEWAY_LOG=off, benchmarks) the id is still assigned and echoed.
 */
export function createRequestLog(logger: Logger | undefined, now: () => number = () => performance.now()): RequestLog {
  return {
    begin(c, envelope = 'gateway') {
      const started = now();
      const incoming = c.req.header('x-request-id');
      const requestId = incoming !== undefined && USABLE_REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID();
      c.set('requestId', requestId);
      c.set('log', {});
      c.set('envelope', envelope);
      c.set('replyHeaders', { 'x-request-id': requestId });
      return started;
    },
    end(c, started, response) {
      const sent = withReplyHeaders(c, response);
      if (logger !== undefined) {
        logger({
          time: new Date().toISOString(),
          request_id: c.get('requestId'),
          method: c.req.method,
          path: c.req.path,
          http_status: sent.status,
          ms: Math.round((now() - started) * 100) / 100,
          ...c.get('log'),
        });
      }
      return sent;
    },
  };
}

/** The request log as middleware, for the routes Hono composes (everything but the buyer operations). */
export function requestLog(logger: Logger | undefined | RequestLog, now?: () => number): MiddlewareHandler<GatewayEnv> {
  const log = typeof logger === 'object' ? logger : createRequestLog(logger, now);
  return async (c, next) => {
    const started = log.begin(c);
    await next();
    c.res = log.end(c, started, c.res);
  };
}
