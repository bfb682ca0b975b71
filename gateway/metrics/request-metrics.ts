import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import type { GatewayMetrics } from './gateway-metrics';

// Counts and times every request by its route pattern (/v2_1/catalog/cart/:cart_id, not
// each cart id); a path no route matched is 'unmatched', so strangers cannot grow the labels.

export function requestMetrics(metrics: GatewayMetrics): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      const route = routePath(c, -1);
      metrics.request(route === '' || route.endsWith('*') ? 'unmatched' : route, c.req.method, c.res.status, (performance.now() - started) / 1000);
    }
  };
}
