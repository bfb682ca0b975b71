import type { Context, Handler, MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import type { GatewayEnv } from './gateway-env';
import { errorResponse } from './error-response';

// The steps every request passes (the request log, metrics, body limit, content type), declared
// once as an ordered list (gateway-pipeline.ts) and run by one runner in two forms: Hono
// middleware for the routes Hono composes, and a plain handler for the buyer operations, the
// hot path, which Hono calls without a middleware chain (one async layer, no closure per step,
// no await unless a step has something to wait for). pipeline.test.ts walks every route of the
// app and proves both forms run the same steps in the same order.

export interface PipelineStep {
  /** Names the step in the trace of pipeline.test.ts and in errors. */
  readonly name: string;
  /** On the way in, in list order: throws the error that refuses the request; a promise only when it must wait. */
  enter?(c: Context<GatewayEnv>): void | Promise<void>;
  /** On the way out, in reverse order, for every step that entered; `route` gives the pattern that answered. */
  leave?(c: Context<GatewayEnv>, response: Response, route: RouteOf): Response;
}

/** The route pattern that answered the request (`/json/federated/v3_2/item_inquiry`, `*` when none did). */
export type RouteOf = (c: Context<GatewayEnv>) => string;

/** The steps' `enter`s in order, `inner` (the route) if all passed, every entered step's `leave` in reverse; a failure through the error mapper. */
async function runSteps(steps: readonly PipelineStep[], c: Context<GatewayEnv>, inner: () => Response | Promise<Response>, route: RouteOf): Promise<Response> {
  let entered = 0;
  let response: Response;
  try {
    for (; entered < steps.length; entered++) {
      const waiting = steps[entered].enter?.(c);
      if (waiting !== undefined) await waiting;
    }
    const answered = inner();
    response = answered instanceof Response ? answered : await answered;
  } catch (error) {
    response = errorResponse(error, c);
  }
  for (let i = entered - 1; i >= 0; i--) {
    const leave = steps[i].leave;
    if (leave !== undefined) response = leave(c, response, route);
  }
  return response;
}

// The buyer operation's own handler is the route (it is registered first and always answers).
const ownRoute: RouteOf = (c) => routePath(c);
// After the chain the last handler matched is the route's own (or a catch-all: unmatched).
const lastMatchedRoute: RouteOf = (c) => routePath(c, -1);

/** The pipeline around one handler that always answers (the buyer operations): no middleware chain runs. */
export function pipelineHandler(steps: readonly PipelineStep[], handler: (c: Context<GatewayEnv>) => Promise<Response>): Handler<GatewayEnv> {
  return (c) => runSteps(steps, c, () => handler(c), ownRoute);
}

/** The pipeline as one Hono middleware, for the routes Hono composes. */
export function pipelineMiddleware(steps: readonly PipelineStep[]): MiddlewareHandler<GatewayEnv> {
  return async (c, next) => {
    c.res = await runSteps(
      steps,
      c,
      async () => {
        await next();
        return c.res;
      },
      lastMatchedRoute,
    );
  };
}
