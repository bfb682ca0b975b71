import type { MiddlewareHandler } from 'hono';
import type { GatewayEnv } from './gateway-env';

/** Receives one structured entry per request; tests pass a collector or a no-op. */
export type Logger = (entry: Record<string, unknown>) => void;

export const jsonLineLogger: Logger = (entry) => process.stdout.write(`${JSON.stringify(entry)}\n`);

// A caller's own request id is kept when it looks like an id, so traces join up across systems.
const USABLE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Assigns the request id, echoes it, and writes one log line when the response is ready.
 * With no logger (GATEWAY_LOG=off, benchmarks) the id is still assigned and echoed.
 */
export function requestLog(logger: Logger | undefined, now: () => number = () => performance.now()): MiddlewareHandler<GatewayEnv> {
  return async (c, next) => {
    const started = now();
    const incoming = c.req.header('x-request-id');
    const requestId = incoming !== undefined && USABLE_REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID();
    const fields: Record<string, unknown> = {};
    c.set('requestId', requestId);
    c.set('log', fields);
    c.set('envelope', 'gateway');
    // Set before the response exists: adding a header afterwards makes Hono copy the response.
    c.header('x-request-id', requestId);
    await next();
    if (logger === undefined) return;
    logger({
      time: new Date().toISOString(),
      request_id: requestId,
      method: c.req.method,
      path: c.req.path,
      http_status: c.res.status,
      ms: Math.round((now() - started) * 100) / 100,
      ...fields,
    });
  };
}
