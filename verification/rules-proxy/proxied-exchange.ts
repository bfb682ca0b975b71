import type { ForwardedOperation, ReplyCheck } from '../../contracts/reply-check';
import type { ReplyFinding } from '../reply-findings';

// One request through the rules proxy and what became of it: its own file so the reports
// that read it need not import the proxy (which imports them).

export interface Exchange {
  /** 1-based order of arrival. */
  index: number;
  service?: string;
  operation?: ForwardedOperation;
  request: unknown;
  /** HTTP status from the seller, 0 when it could not be reached. */
  status: number;
  reply?: unknown;
  /** The reply's text as it arrived (number spellings and all), beside `reply` parsed. */
  replyText?: string;
  /** The rules' verdict; absent when the reply could not be checked (see `problem`). */
  check?: ReplyCheck;
  /**
   * Why the exchange could not be checked: seller unreachable, closed without answering, HTTP
   * error, not JSON, no answer in time.
   */
  problem?: string;
  /** The reply was not JSON, or too large: the proxy answered with this instead of relaying it. */
  finding?: ReplyFinding;
  elapsedMs: number;
  /** What the caller tagged the exchange with when it arrived (the interaction under way). */
  tag?: string;
  /**
   * The proxy answered for the seller: it could not be reached, closed the connection without
   * answering, did not answer in time, or its reply was not relayed (see `finding`).
   */
  proxyAnswer?: 'unreachable' | 'closed' | 'timeout' | 'stopped' | ReplyFinding['rule'];
  /** The seller's answer came after the limit: how long it took. */
  answeredAfterMs?: number;
  /** The limit the seller did not answer within (set on a timeout; `status` is then a late answer's, if any). */
  limitMs?: number;
  /** What became of a request the proxy stopped waiting for. */
  late?: string;
}
