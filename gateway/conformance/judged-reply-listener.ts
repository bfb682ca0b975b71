import type { GatewayMetrics } from '../metrics/gateway-metrics';
import type { ConformanceCounter } from './conformance-counter';
import { brokenRules, type ReplyJudgement } from './reply-judgement';

/**
 * What the one pass tells of each judged reply: the rules it broke, worked out once, go to
 * Prometheus and to the conformance counts alike, so the two cannot disagree. Undefined when
 * neither is there (nothing to pay for per reply).
 */
export function judgedReplyListener(
  metrics: GatewayMetrics | undefined,
  conformance: ConformanceCounter | undefined,
): ((judgement: ReplyJudgement) => void) | undefined {
  if (metrics === undefined && conformance === undefined) return undefined;
  return (judgement) => {
    const broken = brokenRules(judgement.operation, judgement.check);
    metrics?.replyJudged(judgement.memberId, judgement.operation, broken);
    conformance?.count(judgement, broken);
  };
}
