// The shapes a certification passes through: the job as the store keeps it, what a worker is
// handed to run (the member's seller, credentials and state map), and what it hands back. The
// runner itself (the kit) lives in an entry point: the gateway never imports verification/.
import { CONTRACT_VERSION } from '../../contracts/contract-version';

/** The major a member's passing certificate must be for: only then may it go (or come back) live. */
export const CURRENT_CONTRACT_MAJOR = Number(CONTRACT_VERSION.split('.')[0]);

export const JOB_STATUSES = ['queued', 'running', 'passed', 'failed', 'error'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
export type Verdict = 'passed' | 'failed';

export interface CertificationJob {
  id: number;
  memberId: string;
  status: JobStatus;
  /** The contract version when the job was asked for. */
  contractVersion: string;
  requestedBy: string;
  requestedAt: Date;
  claimedBy: string | null;
  leaseUntil: Date | null;
  /** How many times a worker claimed it: the fencing token of the current holder. */
  attempt: number;
  finishedAt: Date | null;
  /** Why the job ended without a certificate (the seller could not be reached, the kit refused the input). */
  error: string | null;
}

/** A claimed job: only the holder of this attempt may heartbeat, finish or release it. */
export interface JobLease {
  jobId: number;
  attempt: number;
}

/** What a worker needs to certify a member, read when it claims the job. */
export interface CertificationSpec extends JobLease {
  memberId: string;
  sellerUrl: string;
  /** The member's seller credentials as request headers (Authorization): never logged, never stored in a report. */
  headers: Record<string, string>;
  timeoutMs: number;
  /** The member's stored state map (the kit's state-map JSON). */
  stateMap: unknown;
  /** The load SLOs the member declares; null: no load run. */
  slos: string[] | null;
  /**
   * The contract version of the member's newest passing certificate when that is for an older
   * major: the runner marks the interactions new or changed since then as pending.
   */
  since: string | null;
}

/** One finding that decided a verdict, from whichever run made it. */
export interface CertificationFinding {
  run: 'verify' | 'explore' | 'load';
  /** The rule (reply.*, pact, slo, …) or what went wrong. */
  rule: string;
  message: string;
  interaction?: string;
  path?: string;
  /** Run as pending: an interaction new or changed since the member's last certificate. */
  pending?: true;
}

/** A run's outcome: a certificate (passed or failed), or an error (nothing was certified). */
export type CertificationOutcome =
  | {
      kind: 'certificate';
      verdict: Verdict;
      contractVersion: string;
      pactDigest: string;
      findings: CertificationFinding[];
      /** The kit's JSON reports: { verify, explore, load? } and what bounded them. */
      report: Record<string, unknown>;
      toolkitVersion: string;
    }
  | { kind: 'error'; message: string };

/** Certifies one member. Must settle soon after `signal` aborts (the worker is stopping or lost its lease). */
export type CertificationRunner = (spec: CertificationSpec, signal: AbortSignal) => Promise<CertificationOutcome>;
