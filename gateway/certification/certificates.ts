// A member's certificates as the gateway reads them: the member may go (or come back) live only
// while it holds a passing certificate for the current contract major.
import { CONTRACT_VERSION } from '../../contracts/contract-version';
import type { Queryable } from '../store/store';

export const CURRENT_CONTRACT_MAJOR = Number(CONTRACT_VERSION.split('.')[0]);

export interface CertificateSummary {
  id: number;
  jobId: number;
  memberId: string;
  contractVersion: string;
  contractMajor: number;
  pactDigest: string;
  verdict: 'passed' | 'failed';
  toolkitVersion: string;
  issuedAt: Date;
}

interface CertificateRow {
  id: string;
  job_id: string;
  member_id: string;
  contract_version: string;
  contract_major: number;
  pact_digest: string;
  verdict: 'passed' | 'failed';
  toolkit_version: string;
  issued_at: Date | string;
}

const summaryOf = (row: CertificateRow): CertificateSummary => ({
  id: Number(row.id),
  jobId: Number(row.job_id),
  memberId: row.member_id,
  contractVersion: row.contract_version,
  contractMajor: row.contract_major,
  pactDigest: row.pact_digest,
  verdict: row.verdict,
  toolkitVersion: row.toolkit_version,
  issuedAt: new Date(row.issued_at),
});

/** The newest passing certificate the member holds for `major`, if any. */
export async function passingCertificate(
  q: Queryable,
  memberId: string,
  major: number = CURRENT_CONTRACT_MAJOR,
): Promise<CertificateSummary | undefined> {
  const { rows } = await q.query<CertificateRow>(
    `SELECT id, job_id, member_id, contract_version, contract_major, pact_digest, verdict, toolkit_version, issued_at
       FROM certificates
      WHERE member_id = $1 AND contract_major = $2 AND verdict = 'passed'
      ORDER BY issued_at DESC, id DESC
      LIMIT 1`,
    [memberId, major],
  );
  return rows[0] === undefined ? undefined : summaryOf(rows[0]);
}
