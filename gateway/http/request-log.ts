import { writeSync } from 'node:fs';
import type { MiddlewareHandler } from 'hono';
import type { GatewayEnv } from './gateway-env';
import { pipelineMiddleware, type PipelineStep } from './pipeline';
import { withReplyHeaders } from './reply-headers';

/** Receives one structured entry per request; tests pass a collector or a no-op. */
export type Logger = (entry: Record<string, unknown>) => void;

/** Takes one line; `flush()` writes what is pending now. */
export type LineWriter = ((line: string) => void) & { flush(): void };

/**
 * Lines are gathered and written once per event-loop turn (or every 64 KB): a write per line
 * costs several times a batched line (docs/performance.md, "The request log's batched writes").
 * A line waits at most one turn; a server that stops flushes after its last request (server.ts),
 * and any line still pending when the process exits is written synchronously then.
 */
export function batchedLineWriter(
  write: (text: string) => void,
  writeAtExit: (text: string) => void = write,
  maxPending = 65_536,
): LineWriter {
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
  const line = (text: string) => {
    pending += text;
    if (pending.length >= maxPending) flush();
    else if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  };
  return Object.assign(line, { flush });
}

let stdoutLines: LineWriter | undefined;

export const jsonLineLogger: Logger = (entry) => {
  stdoutLines ??= batchedLineWriter(
    (text) => process.stdout.write(text),
    (text) => writeSync(1, text),
  );
  stdoutLines(`${JSON.stringify(entry)}\n`);
};

/** Writes jsonLineLogger's pending lines now: a stopping server calls it once its last request is answered. */
export function flushJsonLines(): void {
  stdoutLines?.flush();
}

// A caller's own request id is kept when it looks like an id, so traces join up across systems.
const USABLE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The request log as a pipeline step: on the way in, the request id (a caller's own kept when
 * it looks like an id, echoed), its log fields and its reply headers; on the way out, the
 * response with the gathered reply headers and one log line. With no logger (GATEWAY_LOG=off,
 * benchmarks) the id is still assigned and echoed.
 */
export function requestLogStep(logger: Logger | undefined, now: () => number = () => performance.now()): PipelineStep {
  return {
    name: 'request-log',
    enter(c) {
      c.set('requestStarted', now());
      const incoming = c.req.header('x-request-id');
      const requestId = incoming !== undefined && USABLE_REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID();
      c.set('requestId', requestId);
      c.set('log', {});
      c.set('replyHeaders', { 'x-request-id': requestId });
    },
    leave(c, response) {
      const sent = withReplyHeaders(c, response);
      if (logger !== undefined) {
        logger({
          time: new Date().toISOString(),
          request_id: c.get('requestId'),
          method: c.req.method,
          path: c.req.path,
          http_status: sent.status,
          ms: Math.round((now() - c.get('requestStarted')) * 100) / 100,
          ...c.get('log'),
        });
      }
      return sent;
    },
  };
}

/** The request log alone as middleware (test shells that mount a route group). */
export function requestLog(logger: Logger | undefined, now?: () => number): MiddlewareHandler<GatewayEnv> {
  return pipelineMiddleware([requestLogStep(logger, now)]);
}
