import type { Queryable } from '../store/store';
import { CertificationNotFound } from './certification-errors';
import {
  CURRENT_CONTRACT_MAJOR,
  type CertificationFinding,
  type CertificationJob,
  type JobStatus,
  type Verdict,
} from './certification-types';

// What an operator reads: a job with its certificate (findings and the kit's report), a
// member's jobs and certificates, and the members that need certification for the current
// contract major; what the member writer reads: the passing certificate a member needs to go
// (or come back) live. The job row mapping lives here, not in the queue: the queue reaches this
// file through the member writer, so this file may not import the queue.

export interface Certificate {
  id: number;
  jobId: number;
  memberId: string;
  contractVersion: string;
  contractMajor: number;
  pactDigest: string;
  verdict: Verdict;
  findings: CertificationFinding[];
  toolkitVersion: string;
  issuedAt: Date;
}

export interface CertificateWithReport extends Certificate {
  report: Record<string, unknown>;
}

interface CertificateRow {
  id: string;
  job_id: string;
  member_id: string;
  contract_version: string;
  contract_major: number;
  pact_digest: string;
  verdict: Verdict;
  findings: CertificationFinding[];
  toolkit_version: string;
  issued_at: Date | string;
  report?: Record<string, unknown>;
}

const CERTIFICATE_COLUMNS =
  'id, job_id, member_id, contract_version, contract_major, pact_digest, verdict, findings, toolkit_version, issued_at';

const certificateOf = (row: CertificateRow): Certificate => ({
  id: Number(row.id),
  jobId: Number(row.job_id),
  memberId: row.member_id,
  contractVersion: row.contract_version,
  contractMajor: row.contract_major,
  pactDigest: row.pact_digest,
  verdict: row.verdict,
  findings: row.findings,
  toolkitVersion: row.toolkit_version,
  issuedAt: new Date(row.issued_at),
});

// A job as the store keeps it: the queue writes and maps its rows with these too.
export interface JobRow {
  id: string;
  member_id: string;
  status: JobStatus;
  contract_version: string;
  requested_by: string;
  requested_at: Date | string;
  claimed_by: string | null;
  lease_until: Date | string | null;
  attempt: number;
  finished_at: Date | string | null;
  error: string | null;
}

export const JOB_COLUMNS =
  'id, member_id, status, contract_version, requested_by, requested_at, claimed_by, lease_until, attempt, finished_at, error';
const date = (value: Date | string | null): Date | null => (value === null ? null : new Date(value));

export const jobOf = (row: JobRow): CertificationJob => ({
  id: Number(row.id),
  memberId: row.member_id,
  status: row.status,
  contractVersion: row.contract_version,
  requestedBy: row.requested_by,
  requestedAt: new Date(row.requested_at),
  claimedBy: row.claimed_by,
  leaseUntil: date(row.lease_until),
  attempt: row.attempt,
  finishedAt: date(row.finished_at),
  error: row.error,
});

/** The newest passing certificate the member holds for `major`, if any. */
export async function passingCertificate(
  q: Queryable,
  memberId: string,
  major: number = CURRENT_CONTRACT_MAJOR,
): Promise<Certificate | undefined> {
  const { rows } = await q.query<CertificateRow>(
    `SELECT ${CERTIFICATE_COLUMNS} FROM certificates
      WHERE member_id = $1 AND contract_major = $2 AND verdict = 'passed'
      ORDER BY issued_at DESC, id DESC
      LIMIT 1`,
    [memberId, major],
  );
  return rows[0] === undefined ? undefined : certificateOf(rows[0]);
}

async function ensureMember(q: Queryable, memberId: string): Promise<void> {
  const { rows } = await q.query('SELECT 1 FROM members WHERE id = $1', [memberId]);
  if (rows.length === 0)
    throw new CertificationNotFound(`unknown member ${memberId}`, [{ path: '/id', message: 'no such member' }]);
}

/** A job and its certificate (with the whole report), or 404 naming the id. */
export async function jobWithCertificate(
  q: Queryable,
  jobId: number,
): Promise<{ job: CertificationJob; certificate: CertificateWithReport | null }> {
  const { rows } = await q.query<JobRow>(`SELECT ${JOB_COLUMNS} FROM certification_jobs WHERE id = $1`, [jobId]);
  if (rows[0] === undefined)
    throw new CertificationNotFound(`unknown certification job ${jobId}`, [{ path: '/jobId', message: 'no such job' }]);
  const { rows: certificates } = await q.query<CertificateRow>(
    `SELECT ${CERTIFICATE_COLUMNS}, report FROM certificates WHERE job_id = $1`,
    [jobId],
  );
  const row = certificates[0];
  return {
    job: jobOf(rows[0]),
    certificate: row === undefined ? null : { ...certificateOf(row), report: row.report ?? {} },
  };
}

/** The member's jobs and certificates (without reports), newest first; 404 for an unknown member. */
export async function memberCertifications(
  q: Queryable,
  memberId: string,
  limit = 50,
): Promise<{ jobs: CertificationJob[]; certificates: Certificate[] }> {
  await ensureMember(q, memberId);
  const { rows: jobs } = await q.query<JobRow>(
    `SELECT ${JOB_COLUMNS} FROM certification_jobs WHERE member_id = $1 ORDER BY requested_at DESC, id DESC LIMIT $2`,
    [memberId, limit],
  );
  const { rows: certificates } = await q.query<CertificateRow>(
    `SELECT ${CERTIFICATE_COLUMNS} FROM certificates WHERE member_id = $1 ORDER BY issued_at DESC, id DESC LIMIT $2`,
    [memberId, limit],
  );
  return { jobs: jobs.map(jobOf), certificates: certificates.map(certificateOf) };
}

/**
 * Why a member needs certification for the current major:
 * - `older-major`: its newest passing certificate is for an older contract major;
 * - `never-certified`: it is live without any passing certificate (members that served buyers
 *   before certification existed, such as the seeded ones);
 * - `pending`: it is waiting for its first pass.
 * Suspended members are left out: an operator lifts the suspension first.
 */
export type NeedsReason = 'older-major' | 'never-certified' | 'pending';

export interface MemberNeedingCertification {
  memberId: string;
  status: 'pending' | 'live';
  reason: NeedsReason;
  /** The newest passing certificate it holds, for an older major, if any. */
  lastPassed: { contractVersion: string; contractMajor: number; issuedAt: Date } | null;
  /** The job already queued or running for it, if any. */
  openJobId: number | null;
}

export async function membersNeedingCertification(
  q: Queryable,
  major: number = CURRENT_CONTRACT_MAJOR,
): Promise<MemberNeedingCertification[]> {
  const { rows } = await q.query<{
    id: string;
    status: 'pending' | 'live';
    contract_version: string | null;
    contract_major: number | null;
    issued_at: Date | string | null;
    open_job: string | null;
  }>(
    `SELECT m.id, m.status, last.contract_version, last.contract_major, last.issued_at, open.id AS open_job
       FROM members m
       LEFT JOIN LATERAL (SELECT contract_version, contract_major, issued_at FROM certificates c
                           WHERE c.member_id = m.id AND c.verdict = 'passed'
                           ORDER BY c.issued_at DESC, c.id DESC LIMIT 1) last ON true
       LEFT JOIN certification_jobs open ON open.member_id = m.id AND open.status IN ('queued', 'running')
      WHERE m.status <> 'suspended'
        AND NOT EXISTS (SELECT 1 FROM certificates c
                         WHERE c.member_id = m.id AND c.verdict = 'passed' AND c.contract_major = $1)
      ORDER BY m.id`,
    [major],
  );
  return rows.map((row) => ({
    memberId: row.id,
    status: row.status,
    reason: row.contract_major !== null ? 'older-major' : row.status === 'pending' ? 'pending' : 'never-certified',
    lastPassed:
      row.contract_version === null || row.contract_major === null || row.issued_at === null
        ? null
        : {
            contractVersion: row.contract_version,
            contractMajor: row.contract_major,
            issuedAt: new Date(row.issued_at),
          },
    openJobId: row.open_job === null ? null : Number(row.open_job),
  }));
}
