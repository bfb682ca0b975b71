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

/**
 * The log's own copy. The operations merge and enrich the seller's parsed reply in place (no
 * copies on the hot path), so a kept reference would later show the merged buyer reply, and
 * the verdict, worked out lazily, would judge that instead of what this seller sent.
 */
const snapshot = (value: unknown): unknown =>
  value === null || typeof value !== 'object' ? value : structuredClone(value);

export function recordingSellerClient(inner: SellerClient, log: Pick<ExchangeLog, 'add'>): SellerClient {
  return {
    async call(call) {
      const at = new Date().toISOString();
      // Taken before the call: nothing may change what was sent while the seller answers.
      const request = snapshot(call.body);
      const outcome = await inner.call(call);
      // Taken before the caller sees the outcome, i.e. before any merge touches it.
      const reply = snapshot(replyOf(outcome));
      const service = (call.body as { service?: unknown }).service;
      log.add({
        at,
        service: typeof service === 'string' ? service : null,
        member: call.member.id,
        request,
        http_status: statusOf(outcome),
        reply,
        duration_ms: outcome.elapsedMs,
        faults: [],
        outcome: outcome.kind === 'reply' ? undefined : outcome.message,
      });
      return outcome;
    },
    close: () => inner.close(),
  };
}
