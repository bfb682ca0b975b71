import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../store/store';
import { availableTestBackends, createTestStore } from '../testing/test-store';
import { passingCertificate } from './certification-reads';
import { CURRENT_CONTRACT_MAJOR } from './certification-types';

describe.each(availableTestBackends())('member status and certificates on %s', (backend) => {
  let store: Store;
  beforeAll(async () => {
    store = await createTestStore({ backend });
    await store.query(`INSERT INTO members (id, name, seller_url) VALUES ('MNEW', 'New', 'http://n/seller')`);
  });
  afterAll(async () => {
    await store?.close();
  });

  const issue = async (verdict: 'passed' | 'failed', major: number, issuedAt: string) => {
    const { rows } = await store.query<{ id: string }>(
      `INSERT INTO certification_jobs (member_id, status, contract_version, requested_by, requested_at, finished_at)
       VALUES ('MNEW', $1, $2, 'test', $3, $3) RETURNING id`,
      [verdict, `${major}.0.0`, issuedAt],
    );
    await store.query(
      `INSERT INTO certificates (job_id, member_id, contract_version, contract_major, pact_digest, verdict, report,
         toolkit_version, issued_at)
       VALUES ($1, 'MNEW', $2, $3, 'sha256:x', $4, '{}', '0.1.0', $5)`,
      [rows[0].id, `${major}.0.0`, major, verdict, issuedAt],
    );
    return Number(rows[0].id);
  };

  it('keeps seeded members live and starts a member added without a status pending', async () => {
    const { rows } = await store.query<{ id: string; status: string }>(
      `SELECT id, status FROM members WHERE id IN ('M100', 'MNEW') ORDER BY id`,
    );
    expect(rows).toEqual([
      { id: 'M100', status: 'live' },
      { id: 'MNEW', status: 'pending' },
    ]);
  });

  it('finds only a passing certificate for the major asked about', async () => {
    expect(await passingCertificate(store, 'MNEW')).toBeUndefined();
    await issue('failed', CURRENT_CONTRACT_MAJOR, '2026-01-02T00:00:00Z');
    await issue('passed', CURRENT_CONTRACT_MAJOR - 1, '2026-01-03T00:00:00Z');
    expect(await passingCertificate(store, 'MNEW')).toBeUndefined();
    const job = await issue('passed', CURRENT_CONTRACT_MAJOR, '2026-01-01T00:00:00Z');
    expect(await passingCertificate(store, 'MNEW')).toMatchObject({ jobId: job, verdict: 'passed', findings: [] });
    expect((await passingCertificate(store, 'MNEW', CURRENT_CONTRACT_MAJOR - 1))?.contractMajor).toBe(
      CURRENT_CONTRACT_MAJOR - 1,
    );
  });

  it('keeps one open job per member and one certificate per job', async () => {
    const open = `INSERT INTO certification_jobs (member_id, status, contract_version, requested_by, requested_at)
                  VALUES ('MNEW', 'queued', '3.2.0', 'test', now())`;
    await store.query(open);
    await expect(store.query(open)).rejects.toThrow(/certification_jobs_one_open/);
    const { rows } = await store.query<{ id: string }>(`SELECT job_id AS id FROM certificates LIMIT 1`);
    await expect(
      store.query(
        `INSERT INTO certificates (job_id, member_id, contract_version, contract_major, pact_digest, verdict, report,
           toolkit_version, issued_at) VALUES ($1, 'MNEW', '3.2.0', 3, 'x', 'passed', '{}', '0.1.0', now())`,
        [rows[0].id],
      ),
    ).rejects.toThrow(/certificates_job_id_key/);
  });
});
