import { CONTRACT_VERSION } from '../../contracts/contract-version';
import { systemClock, type Clock } from '../clock';
import type { Queryable, Store } from '../store/store';
import { isUniqueViolation } from '../store/sql-errors';
import type { MemberAction } from '../directory/members';
import { CertificationConflict, CertificationNotFound } from './certification-errors';
import { JOB_COLUMNS, jobOf, type JobRow } from './certification-reads';
import { checkSlos, checkStateMap } from './member-certification-input';
import {
  CURRENT_CONTRACT_MAJOR,
  type CertificationJob,
  type CertificationOutcome,
  type CertificationSpec,
  type JobLease,
  type JobStatus,
} from './certification-types';

// The certification queue, kept in the store so any gateway instance or a separate worker
// process takes part: request (finds the open job, else queues one), claim (the oldest queued
// job, or a running one whose lease lapsed; attempt + 1 is the new holder's fencing token),
// heartbeat (extends the lease), finish (only the current attempt's holder; writes the
// certificate and, in the same transaction, puts a pending member live on a pass for the
// current major) and release (a stopping worker hands the job back at once).

export const DEFAULT_LEASE_MS = 60_000;
/** Who the member's status changes are recorded as, in member_changes. */
export const CERTIFICATION_ACTOR = 'certification';

export interface CertificationQueueOptions {
  store: Store;
  clock?: Clock;
  /** How long a claim holds without a heartbeat (default 60 s). */
  leaseMs?: number;
}

interface MemberRow {
  id: string;
  status: 'pending' | 'live' | 'suspended';
  seller_url: string;
  seller_auth_kind: 'none' | 'bearer' | 'basic';
  seller_auth_token: string | null;
  seller_auth_username: string | null;
  seller_auth_password: string | null;
  timeout_ms: number;
  state_map: unknown;
  slos: unknown;
}

/** The member's seller credentials as the headers the kit sends (the gateway's seller client sends the same). */
function sellerHeaders(member: MemberRow): Record<string, string> {
  switch (member.seller_auth_kind) {
    case 'none':
      return {};
    case 'bearer':
      return { authorization: `Bearer ${member.seller_auth_token ?? ''}` };
    case 'basic':
      return {
        authorization: `Basic ${Buffer.from(`${member.seller_auth_username ?? ''}:${member.seller_auth_password ?? ''}`).toString('base64')}`,
      };
    default:
      return member.seller_auth_kind satisfies never;
  }
}

const majorOf = (version: string): number => Number(version.split('.')[0]);

/** A finish that came too late: another worker holds the job now (or it is done). Nothing was written. */
export class FencedOut extends Error {
  constructor(readonly lease: JobLease) {
    super(`certification job ${lease.jobId}: attempt ${lease.attempt} no longer holds it; nothing written`);
    this.name = 'FencedOut';
  }
}

export interface RequestedJob {
  job: CertificationJob;
  /** false: the member already had this job open, and it is returned instead of a new one. */
  created: boolean;
}

export interface FinishedJob {
  job: CertificationJob;
  certificateId: number | null;
  /** The member's status change the finish made, if any. */
  memberStatus?: { from: 'pending'; to: 'live' };
}

interface QueueContext {
  store: Store;
  now: () => Date;
  leaseEnd: () => Date;
}

async function memberRow(q: Queryable, memberId: string, lock: boolean): Promise<MemberRow> {
  const { rows } = await q.query<MemberRow>(
    `SELECT id, status, seller_url, seller_auth_kind, seller_auth_token, seller_auth_username, seller_auth_password,
            timeout_ms, state_map, slos
       FROM members WHERE id = $1${lock ? ' FOR UPDATE' : ''}`,
    [memberId],
  );
  if (rows[0] === undefined)
    throw new CertificationNotFound(`unknown member ${memberId}`, [{ path: '/id', message: 'no such member' }]);
  return rows[0];
}

async function openJob(q: Queryable, memberId: string): Promise<CertificationJob | undefined> {
  const { rows } = await q.query<JobRow>(
    `SELECT ${JOB_COLUMNS} FROM certification_jobs WHERE member_id = $1 AND status IN ('queued', 'running')`,
    [memberId],
  );
  return rows[0] === undefined ? undefined : jobOf(rows[0]);
}

async function requestJob(ctx: QueueContext, memberId: string, requestedBy: string): Promise<RequestedJob> {
  try {
    return await ctx.store.transaction(async (tx) => {
      const member = await memberRow(tx, memberId, true);
      if (member.status === 'suspended')
        throw new CertificationConflict(
          `member ${memberId} is suspended: lift the suspension before certifying it (certification never changes a suspended member)`,
          [{ path: '/id', message: 'member is suspended', rule: 'certification.member-not-suspended' }],
        );
      const open = await openJob(tx, memberId);
      if (open !== undefined) return { job: open, created: false };
      checkStateMap(member.state_map);
      checkSlos(member.slos);
      const { rows } = await tx.query<JobRow>(
        `INSERT INTO certification_jobs (member_id, status, contract_version, requested_by, requested_at)
         VALUES ($1, 'queued', $2, $3, $4) RETURNING ${JOB_COLUMNS}`,
        [memberId, CONTRACT_VERSION, requestedBy, ctx.now()],
      );
      return { job: jobOf(rows[0]), created: true };
    });
  } catch (error) {
    // Two requests at once on a store without row locks: the other one's job is the open one.
    if (!isUniqueViolation(error, 'certification_jobs_one_open')) throw error;
    const open = await openJob(ctx.store, memberId);
    if (open === undefined) throw error;
    return { job: open, created: false };
  }
}

async function claimJob(ctx: QueueContext, workerId: string): Promise<CertificationSpec | undefined> {
  return ctx.store.transaction(async (tx) => {
    const { rows } = await tx.query<JobRow>(
      `UPDATE certification_jobs
          SET status = 'running', claimed_by = $1, lease_until = $2, attempt = attempt + 1
        WHERE id = (SELECT id FROM certification_jobs
                     WHERE status = 'queued' OR (status = 'running' AND lease_until < $3)
                     ORDER BY requested_at, id
                     LIMIT 1
                     FOR UPDATE SKIP LOCKED)
        RETURNING ${JOB_COLUMNS}`,
      [workerId, ctx.leaseEnd(), ctx.now()],
    );
    if (rows[0] === undefined) return undefined;
    const job = jobOf(rows[0]);
    const member = await memberRow(tx, job.memberId, false);
    const { rows: last } = await tx.query<{ contract_version: string; contract_major: number }>(
      `SELECT contract_version, contract_major FROM certificates
        WHERE member_id = $1 AND verdict = 'passed'
        ORDER BY issued_at DESC, id DESC LIMIT 1`,
      [job.memberId],
    );
    const since = last[0] !== undefined && last[0].contract_major < CURRENT_CONTRACT_MAJOR ? last[0] : undefined;
    return {
      jobId: job.id,
      attempt: job.attempt,
      memberId: job.memberId,
      sellerUrl: member.seller_url,
      headers: sellerHeaders(member),
      timeoutMs: member.timeout_ms,
      stateMap: member.state_map,
      // Checked when the job was asked for; read again, as a member may have changed since.
      slos: Array.isArray(member.slos) && member.slos.length > 0 ? (member.slos as string[]) : null,
      since: since?.contract_version ?? null,
    };
  });
}

/** A pending member goes live on its pass; the change recorded, every instance's directory told. */
async function putLive(
  ctx: QueueContext,
  tx: Queryable,
  job: CertificationJob,
  certificateId: number,
  contractVersion: string,
  at: Date,
): Promise<boolean> {
  const { affectedRows } = await tx.query(`UPDATE members SET status = 'live' WHERE id = $1 AND status = 'pending'`, [
    job.memberId,
  ]);
  if (affectedRows === 0) return false;
  await tx.query(`INSERT INTO member_changes (member_id, actor, action, detail, at) VALUES ($1, $2, $3, $4, $5)`, [
    job.memberId,
    CERTIFICATION_ACTOR,
    'member.certified' satisfies MemberAction,
    JSON.stringify({
      before: { status: 'pending' },
      after: { status: 'live' },
      job: job.id,
      certificate: certificateId,
      contract_version: contractVersion,
    }),
    at,
  ]);
  await ctx.store.notifyDirectoryChanged?.(tx);
  return true;
}

async function finishJob(ctx: QueueContext, lease: JobLease, outcome: CertificationOutcome): Promise<FinishedJob> {
  return ctx.store.transaction(async (tx) => {
    const at = ctx.now();
    const status: JobStatus = outcome.kind === 'error' ? 'error' : outcome.verdict;
    const { rows } = await tx.query<JobRow>(
      `UPDATE certification_jobs SET status = $3, lease_until = NULL, finished_at = $4, error = $5
        WHERE id = $1 AND attempt = $2 AND status = 'running'
        RETURNING ${JOB_COLUMNS}`,
      [lease.jobId, lease.attempt, status, at, outcome.kind === 'error' ? outcome.message : null],
    );
    if (rows[0] === undefined) throw new FencedOut(lease);
    const job = jobOf(rows[0]);
    if (outcome.kind === 'error') return { job, certificateId: null };
    const major = majorOf(outcome.contractVersion);
    const { rows: issued } = await tx.query<{ id: string }>(
      `INSERT INTO certificates (job_id, member_id, contract_version, contract_major, pact_digest, verdict, findings,
                                 report, toolkit_version, issued_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`,
      [
        job.id,
        job.memberId,
        outcome.contractVersion,
        major,
        outcome.pactDigest,
        outcome.verdict,
        JSON.stringify(outcome.findings),
        JSON.stringify(outcome.report),
        outcome.toolkitVersion,
        at,
      ],
    );
    const certificateId = Number(issued[0].id);
    const live =
      outcome.verdict === 'passed' &&
      major === CURRENT_CONTRACT_MAJOR &&
      (await putLive(ctx, tx, job, certificateId, outcome.contractVersion, at));
    return { job, certificateId, ...(live ? { memberStatus: { from: 'pending' as const, to: 'live' as const } } : {}) };
  });
}

export function createCertificationQueue(options: CertificationQueueOptions) {
  const { store } = options;
  const clock = options.clock ?? systemClock;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const ctx: QueueContext = { store, now: () => new Date(clock()), leaseEnd: () => new Date(clock() + leaseMs) };

  return {
    leaseMs,
    /**
     * Queues a certification of the member, or finds the one already open. Refuses an unknown
     * member (404), a suspended one (409) and one whose state map or SLOs cannot be run (422);
     * nothing is written then.
     */
    request: (memberId: string, requestedBy: string) => requestJob(ctx, memberId, requestedBy),
    /**
     * The oldest queued job, or a running one whose lease lapsed (its worker stopped without a
     * word), now held by `workerId` until the lease ends; undefined when there is none.
     */
    claim: (workerId: string) => claimJob(ctx, workerId),
    /** Extends the lease; false when this attempt no longer holds the job (the worker must stop it). */
    async heartbeat(lease: JobLease): Promise<boolean> {
      const { affectedRows } = await store.query(
        `UPDATE certification_jobs SET lease_until = $3 WHERE id = $1 AND attempt = $2 AND status = 'running'`,
        [lease.jobId, lease.attempt, ctx.leaseEnd()],
      );
      return affectedRows === 1;
    },
    /** Hands a job back to the queue at once (a worker stopping gracefully); false when it was not held. */
    async release(lease: JobLease): Promise<boolean> {
      const { affectedRows } = await store.query(
        `UPDATE certification_jobs SET status = 'queued', claimed_by = NULL, lease_until = NULL
          WHERE id = $1 AND attempt = $2 AND status = 'running'`,
        [lease.jobId, lease.attempt],
      );
      return affectedRows === 1;
    },
    /**
     * Ends the job with its outcome, only for the holder of the current attempt (else FencedOut,
     * nothing written). A certificate is written; on a pass for the current major a pending
     * member goes live in the same transaction, the change recorded. A suspended member stays so.
     */
    finish: (lease: JobLease, outcome: CertificationOutcome) => finishJob(ctx, lease, outcome),
  };
}

export type CertificationQueue = ReturnType<typeof createCertificationQueue>;
