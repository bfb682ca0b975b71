import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../store/store';
import { availableTestBackends, createTestStore } from '../testing/test-store';
import { CONTRACT_VERSION } from '../../contracts/contract-version';
import { createCertificationQueue, FencedOut } from './certification-queue';
import { membersNeedingCertification, passingCertificate } from './certification-reads';
import { CertificationConflict, CertificationInputRejected, CertificationNotFound } from './certification-errors';
import { CURRENT_CONTRACT_MAJOR, type CertificationOutcome } from './certification-types';

// The queue on the store, with a clock the test moves: requests and their refusals, claims,
// leases that lapse, the fence on finish, release, and what a finish does to the member.

const STATE_MAP = { defaults: { member: 'N7', account: 'ACC-77', location_id: 'DEPOT-1' }, states: {} };
const outcome = (verdict: 'passed' | 'failed', contractVersion = CONTRACT_VERSION): CertificationOutcome => ({
  kind: 'certificate',
  verdict,
  contractVersion,
  pactDigest: 'sha256:abc',
  findings: verdict === 'passed' ? [] : [{ run: 'verify', rule: 'pact', message: 'broken' }],
  report: { verify: { ok: verdict === 'passed' } },
  toolkitVersion: '0.1.0',
});

describe.each(availableTestBackends())('the certification queue on %s', (backend) => {
  let store: Store;
  let now = Date.parse('2026-12-01T09:00:00Z');
  const clock = () => now;
  const queue = () => createCertificationQueue({ store, clock, leaseMs: 60_000 });
  const count = async (table: string) =>
    Number((await store.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`)).rows[0].n);
  const member = async (id: string, status: string, stateMap: unknown = STATE_MAP, slos: unknown = null) =>
    store.query(
      `INSERT INTO members (id, name, seller_url, status, state_map, slos) VALUES ($1, $1, 'http://s/seller', $2, $3, $4)`,
      [id, status, stateMap === null ? null : JSON.stringify(stateMap), slos === null ? null : JSON.stringify(slos)],
    );
  const statusOf = async (id: string) =>
    (await store.query<{ status: string }>('SELECT status FROM members WHERE id = $1', [id])).rows[0].status;

  beforeAll(async () => {
    store = await createTestStore({ backend });
    await member('P1', 'pending');
    await member('P2', 'pending');
    await member('S1', 'suspended');
    await member('NOMAP', 'pending', null);
    await member('BADMAP', 'pending', { states: { 'no such state': {} } });
    await member('BADSLO', 'pending', STATE_MAP, ['fast please']);
  }, 60_000);
  afterAll(async () => {
    await store?.close();
  });

  it('refuses an unknown member, a suspended one, and a state map or SLOs it cannot run, writing nothing', async () => {
    const q = queue();
    await expect(q.request('NOPE', 'ops')).rejects.toBeInstanceOf(CertificationNotFound);
    await expect(q.request('S1', 'ops')).rejects.toMatchObject({
      httpStatus: 409,
      details: [{ rule: 'certification.member-not-suspended' }],
    });
    await expect(q.request('S1', 'ops')).rejects.toBeInstanceOf(CertificationConflict);
    await expect(q.request('NOMAP', 'ops')).rejects.toMatchObject({
      httpStatus: 422,
      details: [{ path: '/state_map', rule: 'certification.state-map-required' }],
    });
    const bad = await q.request('BADMAP', 'ops').catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(CertificationInputRejected);
    expect((bad as CertificationInputRejected).message).toMatch(/state_map does not match.*no such state/);
    await expect(q.request('BADSLO', 'ops')).rejects.toMatchObject({ httpStatus: 422, details: [{ path: '/slos/0' }] });
    expect(await count('certification_jobs')).toBe(0);
    expect(await count('member_changes')).toBe(0);
  });

  it('finds the open job when asked again, and claims the oldest first', async () => {
    const q = queue();
    const first = await q.request('P1', 'ops');
    now += 1_000;
    const again = await q.request('P1', 'someone else');
    expect(first.created).toBe(true);
    expect(again).toMatchObject({ created: false, job: { id: first.job.id, requestedBy: 'ops' } });
    const second = await q.request('P2', 'ops');
    const claimed = await q.claim('w1');
    expect(claimed).toMatchObject({ jobId: first.job.id, attempt: 1, memberId: 'P1', since: null, slos: null });
    expect(claimed?.stateMap).toEqual(STATE_MAP);
    const next = await q.claim('w1');
    expect(next?.jobId).toBe(second.job.id);
    expect(await q.claim('w1')).toBeUndefined();
    // Both finished for the next cases: P1 failed, P2 released and finished below.
    await q.finish(claimed!, outcome('failed'));
    expect(await statusOf('P1')).toBe('pending');
    expect(await q.release(next!)).toBe(true);
  });

  it('gives a lapsed job to another worker and refuses the first one its late finish: one certificate', async () => {
    const q = queue();
    const a = await q.claim('worker-a');
    expect(a?.memberId).toBe('P2');
    expect(await q.heartbeat(a!)).toBe(true);
    now += 59_000;
    expect(await q.claim('worker-b')).toBeUndefined(); // the heartbeat held it
    now += 61_000; // worker-a stopped without a word: its lease lapses
    const b = await q.claim('worker-b');
    expect(b).toMatchObject({ jobId: a!.jobId, attempt: a!.attempt + 1 });
    expect(await q.heartbeat(a!)).toBe(false);
    expect(await q.release(a!)).toBe(false);
    const finished = await q.finish(b!, outcome('passed'));
    expect(finished).toMatchObject({ job: { status: 'passed' }, memberStatus: { from: 'pending', to: 'live' } });
    await expect(q.finish(a!, outcome('failed'))).rejects.toBeInstanceOf(FencedOut);
    const { rows } = await store.query<{ n: string }>(`SELECT count(*) AS n FROM certificates WHERE job_id = $1`, [
      b!.jobId,
    ]);
    expect(Number(rows[0].n)).toBe(1);
    expect(await statusOf('P2')).toBe('live');
    expect((await passingCertificate(store, 'P2'))?.jobId).toBe(b!.jobId);
    const changes = await store.query<{ actor: string; action: string; detail: Record<string, unknown> }>(
      `SELECT actor, action, detail FROM member_changes WHERE member_id = 'P2'`,
    );
    expect(changes.rows).toEqual([
      {
        actor: 'certification',
        action: 'member.certified',
        detail: expect.objectContaining({ before: { status: 'pending' }, after: { status: 'live' }, job: b!.jobId }),
      },
    ]);
  });

  it('never puts a suspended member live, nor one passing only an older major', async () => {
    const q = queue();
    await member('S2', 'pending');
    await member('OLD', 'pending');
    await q.request('S2', 'ops');
    const s2 = await q.claim('w');
    await store.query(`UPDATE members SET status = 'suspended' WHERE id = 'S2'`); // suspended while it ran
    await q.finish(s2!, outcome('passed'));
    expect(await statusOf('S2')).toBe('suspended');
    await q.request('OLD', 'ops');
    const old = await q.claim('w');
    const finished = await q.finish(old!, outcome('passed', `${CURRENT_CONTRACT_MAJOR - 1}.4.0`));
    expect(finished.memberStatus).toBeUndefined();
    expect(await statusOf('OLD')).toBe('pending');
  });

  it('lists who needs certification, and hands a member certified under an older major its last version', async () => {
    const needs = await membersNeedingCertification(store);
    const byId = new Map(needs.map((n) => [n.memberId, n]));
    expect(byId.get('M100')).toMatchObject({ status: 'live', reason: 'never-certified', lastPassed: null });
    expect(byId.get('OLD')).toMatchObject({
      reason: 'older-major',
      lastPassed: { contractVersion: `${CURRENT_CONTRACT_MAJOR - 1}.4.0` },
    });
    expect(byId.get('P1')).toMatchObject({ status: 'pending', reason: 'pending' });
    expect(byId.has('P2')).toBe(false); // passed the current major
    expect(byId.has('S1')).toBe(false); // suspended: lifted first
    const q = queue();
    const { job } = await q.request('OLD', 'ops');
    expect((await membersNeedingCertification(store)).find((n) => n.memberId === 'OLD')?.openJobId).toBe(job.id);
    const spec = await q.claim('w');
    expect(spec).toMatchObject({ memberId: 'OLD', since: `${CURRENT_CONTRACT_MAJOR - 1}.4.0` });
    await q.finish(spec!, { kind: 'error', message: 'seller unreachable' });
    expect((await q.request('OLD', 'ops')).created).toBe(true); // an error leaves no job open
  });
});
