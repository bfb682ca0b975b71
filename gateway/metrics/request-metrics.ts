import type { Context } from 'hono';
import type { PipelineStep } from '../http/pipeline';
import type { GatewayMetrics } from './gateway-metrics';

// Counts and times every request by its route pattern (/v2_1/catalog/cart/:cart_id, not
// each cart id); a path no route matched is 'unmatched', so strangers cannot grow the labels.

/** One finished request, counted and timed under `route` (a pattern from routePath). */
export function recordRequest(
  metrics: GatewayMetrics,
  c: Context,
  route: string,
  status: number,
  seconds: number,
): void {
  metrics.request(route === '' || route.endsWith('*') ? 'unmatched' : route, c.req.method, status, seconds);
}

/** The count as a pipeline step: timed from its entry to its leaving, under the route that answered. */
export function requestMetricsStep(metrics: GatewayMetrics): PipelineStep {
  return {
    name: 'metrics',
    enter(c) {
      c.set('metricsStarted', performance.now());
    },
    leave(c, response, route) {
      recordRequest(metrics, c, route(c), response.status, (performance.now() - c.get('metricsStarted')) / 1000);
      return response;
    },
  };
}
