import type { Context, MiddlewareHandler } from 'hono';
import type { GatewayEnv } from './gateway-env';
import type { PipelineStep } from './pipeline';

// A check a request passes before its handler (body size, authentication and rate limit,
// content type): it throws the gateway error that refuses the request, and returns a promise
// only when it has to wait (a look-up that is not in memory). The app-wide checks are steps of
// the gateway's pipeline (gateway-pipeline.ts); a route's own (authentication) it calls itself
// or mounts as middleware.

export type RequestCheck = (c: Context<GatewayEnv>) => void | Promise<void>;

/** The checks in order, waiting only where one has to. */
export function inTurn(...checks: RequestCheck[]): RequestCheck {
  const from = (first: number): RequestCheck => {
    return (c) => {
      for (let i = first; i < checks.length; i++) {
        const waiting = checks[i](c);
        if (waiting !== undefined) return waiting.then(() => from(i + 1)(c));
      }
    };
  };
  return from(0);
}

/** The check as Hono middleware. */
export function checkMiddleware(check: RequestCheck): MiddlewareHandler<GatewayEnv> {
  return async (c, next) => {
    await check(c);
    await next();
  };
}

/** The check as a step of a pipeline (pipeline.ts). */
export function checkStep(name: string, check: RequestCheck): PipelineStep {
  return { name, enter: check };
}
