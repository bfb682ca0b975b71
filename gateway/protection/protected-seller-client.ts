import type { Clock } from '../clock';
import type { ProtectionConfig } from './protection-config';
import type { SellerCall, SellerClient, SellerOutcome } from '../seller-client/seller-client.types';
import { createCircuitBreakers, type BreakerState, type CircuitBreakers } from './circuit-breaker';
import { SellerBusyError, SellerCircuitOpenError } from './protection-errors';

// Seller protection around the real seller client, per member: a circuit breaker (a seller
// that keeps failing is not called for a cool-down, the buyer gets 5503 at once with
// Retry-After) and a cap on calls in flight (a slow seller holds at most that many of the
// gateway's connections and buyers, the rest are refused at once), so one slow or dead
// seller cannot tie up the gateway for the others. The refusals are thrown as gateway
// errors: they are the gateway's answer, not a seller's outcome, and place order records
// them as certainly not placed.

export interface SellerProtectionOptions {
  breakerFailures: number;
  breakerCooldownMs: number;
  memberConcurrency: number;
  clock: Clock;
  /** Told of every finished seller call (metrics). */
  onOutcome?: (memberId: string, outcome: SellerOutcome) => void;
  onBreakerChange?: (memberId: string, state: BreakerState) => void;
  /** Told of every call refused here (metrics). */
  onRefused?: (memberId: string, reason: 'circuit-open' | 'busy') => void;
}

/** The options a gateway's protection config gives. */
export const sellerProtectionOptions = (config: ProtectionConfig) => ({
  breakerFailures: config.breakerFailures,
  breakerCooldownMs: config.breakerCooldownMs,
  memberConcurrency: config.memberConcurrency,
});

export interface ProtectedSellerClient extends SellerClient {
  breakers: CircuitBreakers;
  /** Calls in flight per member. */
  inFlight(memberId: string): number;
}

/**
 * Timeouts, unreachable sellers, HTTP 5xx and replies over the size limit count against the
 * breaker (an oversized reply costs the gateway its bandwidth and memory each time); any
 * answer it could read does not.
 */
export const isSellerFailure = (outcome: SellerOutcome): boolean =>
  outcome.kind === 'timeout' ||
  outcome.kind === 'unreachable' ||
  outcome.kind === 'too-large' ||
  (outcome.kind === 'http-error' && outcome.status >= 500);

const release = (inFlight: Map<string, number>, memberId: string) =>
  inFlight.set(memberId, (inFlight.get(memberId) ?? 1) - 1);

export function protectSellerClient(inner: SellerClient, options: SellerProtectionOptions): ProtectedSellerClient {
  const breakers = createCircuitBreakers({
    failures: options.breakerFailures,
    cooldownMs: options.breakerCooldownMs,
    clock: options.clock,
    onChange: options.onBreakerChange,
  });
  const inFlight = new Map<string, number>();

  function call(request: SellerCall): Promise<SellerOutcome> {
    try {
      return admitted(request);
    } catch (refusal) {
      return Promise.reject(refusal);
    }
  }

  /** The call, if this member's seller may be called now (throws the refusal otherwise). */
  function admitted(request: SellerCall): Promise<SellerOutcome> {
    const memberId = request.member.id;
    const busy = inFlight.get(memberId) ?? 0;
    if (busy >= options.memberConcurrency) {
      options.onRefused?.(memberId, 'busy');
      throw new SellerBusyError(
        `the seller of member ${memberId} already has ${busy} requests from this gateway in flight, the most it is sent at once; retry shortly`,
        [
          {
            path: '',
            message: `member ${memberId}: ${busy} calls in flight (limit ${options.memberConcurrency})`,
            member: memberId,
          },
        ],
      );
    }
    const admission = breakers.admit(memberId);
    if (!admission.admitted) {
      options.onRefused?.(memberId, 'circuit-open');
      const seconds = Math.ceil(admission.retryAfterMs / 1000);
      throw SellerCircuitOpenError.after(
        seconds,
        `the seller of member ${memberId} failed ${options.breakerFailures} times in a row, so the gateway is not calling it for now (circuit ${admission.state}); retry after ${seconds} s`,
        [{ path: '', message: `member ${memberId}: circuit breaker ${admission.state}`, member: memberId }],
      );
    }
    inFlight.set(memberId, busy + 1);
    let calling: Promise<SellerOutcome>;
    try {
      calling = inner.call(request);
    } catch (error) {
      calling = Promise.reject(error);
    }
    return calling.then(
      (outcome) => {
        release(inFlight, memberId);
        breakers.record(memberId, !isSellerFailure(outcome), admission.probe);
        options.onOutcome?.(memberId, outcome);
        return outcome;
      },
      (error: unknown) => {
        release(inFlight, memberId);
        breakers.record(memberId, false, admission.probe);
        throw error;
      },
    );
  }

  return { call, close: () => inner.close(), breakers, inFlight: (memberId) => inFlight.get(memberId) ?? 0 };
}
