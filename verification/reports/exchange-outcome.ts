// One wording for how an exchange ended, in every report (verify text/JSON/JUnit, the rules
// proxy, explore): a timed-out exchange names the limit, never a status the seller did not
// send in time (the 504 the proxy answers for it is the kit's own).

export interface ExchangeTiming {
  /** The seller's HTTP status; 0 or absent when it sent none. */
  status?: number | null;
  elapsedMs: number;
  /** Set when the seller did not answer within the limit. */
  noAnswerWithinMs?: number;
  /** The seller's answer after the limit: how long it took. */
  answeredAfterMs?: number;
  /** The status of that late answer. */
  lateStatus?: number;
}

export const noAnswerText = (limitMs: number): string => `no answer within ${limitMs} ms (the limit)`;

export function exchangeOutcomeText(e: ExchangeTiming): string {
  if (e.noAnswerWithinMs !== undefined) {
    const late =
      e.answeredAfterMs !== undefined
        ? `; answered${e.lateStatus !== undefined ? ` HTTP ${e.lateStatus}` : ''} after ${e.answeredAfterMs} ms`
        : '';
    return `${noAnswerText(e.noAnswerWithinMs)}${late}`;
  }
  // No status from the seller (stopped before it answered, connection lost): never an HTTP status it did not send.
  if (e.status === undefined || e.status === null || e.status === 0)
    return `no answer from the seller, ${e.elapsedMs} ms`;
  return `HTTP ${e.status}, ${e.elapsedMs} ms${e.answeredAfterMs !== undefined ? `, answered after ${e.answeredAfterMs} ms` : ''}`;
}
