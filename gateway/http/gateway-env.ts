import type { AuthenticatedBuyer } from '../auth/token-verifier';

/** Which reply envelope an error takes: invoices and statements answer in their own. */
export type ErrorEnvelope = 'gateway' | 'invoices' | 'statements';

/** Per-request values the pipeline's steps (pipeline.ts) and the routes set and read. */
export interface GatewayEnv {
  Variables: {
    requestId: string;
    /** When the request log saw the request (its clock). */
    requestStarted: number;
    /** Set once the pipeline ran as middleware: a second pattern of the same route does not run it again. */
    pipelined: boolean;
    /** When the metrics step saw the request (performance.now()). */
    metricsStarted: number;
    buyer: AuthenticatedBuyer;
    envelope: ErrorEnvelope;
    /** Extra fields for this request's log line (overall code, members, warnings). */
    log: Record<string, unknown>;
    /** Headers for this request's reply, whatever it turns out to be (http/reply-headers.ts). */
    replyHeaders: Record<string, string>;
    /** Set once a reply was built from replyHeaders: nothing left to add. */
    replyHeadersApplied: boolean;
  };
}
