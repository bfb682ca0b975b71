import type { Context, Handler, Hono, MiddlewareHandler, NotFoundHandler } from 'hono';
import { routePath } from 'hono/route';
import type { GatewayEnv } from './gateway-env';
import { errorResponse } from './error-response';

// The steps every request passes (the request log, metrics, body limit, content type), declared
// once as an ordered list (gateway-pipeline.ts) and run by one runner in two forms: Hono
// middleware on the routes' own paths, and, for the buyer operations, the hot path, a handler
// of their own that Hono calls without a middleware chain (one async layer, no closure per
// step, no await unless a step has something to wait for). The own handler is a speed-up
// (gateway/speedups/, 'own-runner'); its plain version mounts the buyer operations behind the
// middleware like any route. gateway/app-pipeline.test.ts walks every route of the app, both
// ways, and proves they run the same steps in the same order. Measured gain of the own handler:
// without it the gateway serves 0.77 of the bare proxy's item inquiries, not 0.84, at 1.30 times
// its CPU a request, not 1.20 (docs/performance.md, "Speed-ups").

export interface PipelineStep {
  /** Names the step (the trace of gateway/app-pipeline.test.ts). */
  readonly name: string;
  /** On the way in, in list order: throws the error that refuses the request; a promise only when it must wait. */
  enter?(c: Context<GatewayEnv>): void | Promise<void>;
  /** On the way out, in reverse order, for every step that entered; `route` gives the pattern that answered. */
  leave?(c: Context<GatewayEnv>, response: Response, route: RouteOf): Response;
}

/**
 * The route pattern that answered the request
 * (`/json/federated/v3_2/item_inquiry`; empty or a catch-all `…/*` when none did).
 */
export type RouteOf = (c: Context<GatewayEnv>) => string;

/** One stage of a route's answer: given the stage before's value, its own or a promise of it. */
export type Stage<In, Out> = (c: Context<GatewayEnv>, value: In) => Out | Promise<Out>;

/**
 * A route's answer in stages, each given the value of the one before and awaited only when it
 * returns a promise: the pipeline and the route then share one async layer (a route written
 * as its own async function would cost a promise and an await more per request).
 */
export interface Answer {
  readonly stages: readonly Stage<never, unknown>[];
}

export function answerIn(only: Stage<undefined, Response>): Answer;
export function answerIn<A, B, C>(
  first: Stage<undefined, A>,
  second: Stage<A, B>,
  third: Stage<B, C>,
  last: Stage<C, Response>,
): Answer;
export function answerIn(...stages: Stage<never, unknown>[]): Answer {
  return { stages };
}

/**
 * The steps' `enter`s in order, the answer if all passed, every entered
 * step's `leave` in reverse; a failure through the error mapper.
 */
async function runSteps(
  steps: readonly PipelineStep[],
  c: Context<GatewayEnv>,
  answer: Answer,
  route: RouteOf,
): Promise<Response> {
  let entered = 0;
  let response: Response;
  try {
    for (; entered < steps.length; entered++) {
      const waiting = steps[entered].enter?.(c);
      if (waiting !== undefined) await waiting;
    }
    // Our own stages return native promises when they wait; nothing else is awaited.
    let value: unknown;
    for (const stage of answer.stages as readonly Stage<unknown, unknown>[]) {
      value = stage(c, value);
      if (value instanceof Promise) value = await value;
    }
    response = value as Response;
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

/** The pipeline around a route that always answers (the buyer operations): no middleware chain runs. */
export function pipelineHandler(steps: readonly PipelineStep[], answer: Answer): Handler<GatewayEnv> {
  return (c) => runSteps(steps, c, answer, ownRoute);
}

/** The answer alone, as a Hono handler behind pipelineMiddleware (the plain way to mount a buyer operation). */
export function answerHandler(answer: Answer): Handler<GatewayEnv> {
  return (c) => runSteps([], c, answer, ownRoute);
}

/**
 * The pipeline as one Hono middleware, for the routes Hono composes;
 * it runs once a request, however many of its patterns match.
 */
export function pipelineMiddleware(steps: readonly PipelineStep[]): MiddlewareHandler<GatewayEnv> {
  return async (c, next) => {
    if (c.get('pipelined') === true) return next();
    c.set('pipelined', true);
    const rest = answerIn(async () => {
      await next();
      return c.res;
    });
    const response = await runSteps(steps, c, rest, lastMatchedRoute);
    // Set over an earlier response, Hono's c.res wraps a new Response around the old one's
    // body (a stream then, which the Node adapter pipes instead of writing it whole) and copies
    // its headers. This one is the whole answer already, made from that one: cleared first,
    // c.res takes it as it is.
    c.res = undefined;
    c.res = response;
  };
}

/**
 * `routes` mounted on `app` behind the pipeline, as middleware registered on their own paths
 * rather than on '*': a buyer operation's path then matches its own handler alone, which Hono
 * calls directly instead of composing a chain per request (two promises and a closure more). A
 * path no route matches gets the pipeline around `notFound`.
 */
export function mountBehindPipeline(
  app: Hono<GatewayEnv>,
  routes: Hono<GatewayEnv>,
  steps: readonly PipelineStep[],
  notFound: NotFoundHandler<GatewayEnv>,
): void {
  const middleware = pipelineMiddleware(steps);
  for (const path of new Set(routes.routes.map((route) => route.path))) app.use(path, middleware);
  app.route('/', routes);
  const unmatched = answerIn((c) => notFound(c));
  app.notFound((c) => (c.get('pipelined') === true ? notFound(c) : runSteps(steps, c, unmatched, lastMatchedRoute)));
}
