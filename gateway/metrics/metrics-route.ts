import type { Handler } from 'hono';
import type { Registry } from 'prom-client';

/** GET /metrics: the registry in Prometheus' text format. */
export function metricsRoute(registry: Registry): Handler {
  return async (c) => c.body(await registry.metrics(), 200, { 'content-type': registry.contentType });
}
