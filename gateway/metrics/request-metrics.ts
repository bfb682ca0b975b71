import type { Context, MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import type { GatewayMetrics } from './gateway-metrics';

// Counts and times every request by its route pattern (/v2_1/catalog/cart/:cart_id, not
// each cart id); a path no route matched is 'unmatched', so strangers cannot grow the labels.

/** One finished request, counted and timed under `route` (a pattern from routePath). */
export function recordRequest(metrics: GatewayMetrics, c: Context, route: string, status: number, seconds: number): void {
  metrics.request(route === '' || route.endsWith('*') ? 'unmatched' : route, c.req.method, status, seconds);
}

/** The count as middleware, for the routes Hono composes (the buyer operations count their own). */
export function requestMetrics(metrics: GatewayMetrics): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      // The last handler matched is the route's own (or a catch-all: unmatched).
      recordRequest(metrics, c, routePath(c, -1), c.res.status, (performance.now() - started) / 1000);
    }
  };
}
