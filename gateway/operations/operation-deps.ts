import type { Directory } from '../directory/directory';
import type { SellerClient } from '../seller-client/seller-client.types';
import type { Store } from '../store/store';
import type { Clock } from '../clock';
import type { GatewayConfig } from '../gateway-config';
import type { AuthenticatedBuyer } from '../auth/token-verifier';
import type { Violation } from '../../contracts/index';
import type { Speedups } from '../speedups/speedups';
import type { ReplyJudgement } from '../conformance/reply-judgement';

/** What every operation is built from; the same handlers serve the v3.2 and v3.1 paths. */
export interface OperationDeps {
  store: Store;
  directory: Directory;
  sellerClient: SellerClient;
  clock: Clock;
  config: GatewayConfig;
  /** Told of the reply-rule violations found in each seller reply (metrics). */
  onViolations?: (memberId: string, violations: readonly Violation[]) => void;
  /** Told of every seller reply judged, broken or not (production conformance, its denominators). */
  onReplyJudged?: (judgement: ReplyJudgement) => void;
  /** The parts done fast or plainly (gateway/speedups/): the reply check, the merge, the location plans. */
  speedups: Speedups;
}

/** One buyer call, stripped of HTTP: who, what, and the ids that travel with it. */
export interface OperationInput {
  buyer: AuthenticatedBuyer;
  body: unknown;
  requestId: string;
  /** Place order only: the buyer's Idempotency-Key header. */
  idempotencyKey?: string;
  /** Buyer headers configured to travel on to the seller (config.forwardHeaders). */
  sellerHeaders?: Record<string, string>;
}

/** A buyer reply, serialized by the route with the operation's float-aware writer. */
export interface OperationResult {
  httpStatus: number;
  reply: object;
  /** Broken reply rules passed on in lenient mode; the route sends them as a header. */
  warnings: string[];
  /** Set when a repeated order is answered from the first attempt. */
  replayed?: boolean;
  /** Extra fields for the request's log line. */
  log?: Record<string, unknown>;
}
