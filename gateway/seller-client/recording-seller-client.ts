import type { ExchangeLog } from '../../inspector/exchange-log';
import type { SellerClient, SellerOutcome } from './seller-client.types';

// A seller client that also hands each forwarded call to the inspector's exchange log, as
// sent and as answered (timeouts and refused connections included). Only wired when an
// inspector is (npm start): production keeps no copy of buyers' traffic in memory.

const statusOf = (outcome: SellerOutcome): number | null => ('status' in outcome ? outcome.status : null);

function replyOf(outcome: SellerOutcome): unknown {
  switch (outcome.kind) {
    case 'reply':
      return outcome.body;
    case 'http-error':
    case 'malformed':
      return outcome.body ?? null;
    default:
      return null;
  }
}

export function recordingSellerClient(inner: SellerClient, log: Pick<ExchangeLog, 'add'>): SellerClient {
  return {
    async call(call) {
      const at = new Date().toISOString();
      const outcome = await inner.call(call);
      const service = (call.body as { service?: unknown }).service;
      log.add({
        at,
        service: typeof service === 'string' ? service : null,
        member: call.member.id,
        request: call.body,
        http_status: statusOf(outcome),
        reply: replyOf(outcome),
        duration_ms: outcome.elapsedMs,
        faults: [],
        outcome: outcome.kind === 'reply' ? undefined : outcome.message,
      });
      return outcome;
    },
    close: () => inner.close(),
  };
}
