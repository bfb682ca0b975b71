import type { GatewayMetrics } from '../metrics/gateway-metrics';
import { requestMetricsStep } from '../metrics/request-metrics';
import { requestBodyLimit } from '../protection/request-body-limit';
import { requireJsonContentType } from './json-content-type';
import type { PipelineStep } from './pipeline';
import { checkStep } from './request-check';
import { requestLogStep, type Logger } from './request-log';

// Every step each request of the gateway passes, in order, declared here once: app.ts builds
// the buyer operations' handlers and the other routes' middleware from this one list, and
// pipeline.test.ts proves every route of the app runs it. A route's own checks (authentication
// and rate limit) come after it, in the route.

export interface GatewayPipelineParts {
  /** One entry per request; none when undefined (the request id is still assigned). */
  logger: Logger | undefined;
  metrics?: GatewayMetrics;
  maxBodyBytes: number;
}

export function gatewayPipeline(parts: GatewayPipelineParts): PipelineStep[] {
  return [
    requestLogStep(parts.logger),
    ...(parts.metrics === undefined ? [] : [requestMetricsStep(parts.metrics)]),
    checkStep('body-limit', requestBodyLimit(parts.maxBodyBytes)),
    // The content type is judged before authentication: a form post is refused without verifying a token.
    checkStep('json-content-type', requireJsonContentType),
  ];
}
