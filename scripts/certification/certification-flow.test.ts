import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../gateway/store/store';
import { availableTestBackends, createTestStore } from '../../gateway/testing/test-store';
import { createDirectory } from '../../gateway/directory/create-directory';
import { createSellerClient } from '../../gateway/seller-client/seller-client';
import { createGateway, V3_2 } from '../../gateway/app';
import { gatewayConfig } from '../../gateway/gateway-config';
import { mintDevToken } from '../../gateway/auth/dev-keys';
import { createCertificationQueue } from '../../gateway/certification/certification-queue';
import { createCertificationWorker } from '../../gateway/certification/certification-worker';
import type { CertificationRunner } from '../../gateway/certification/certification-types';
import { startMockSeller, type RunningMockSeller } from '../../mock-seller/index';
import { packagePath } from '../../shared/package-root';
import {
  SPEC_FAITHFUL_STATE_MAP,
  startSpecFaithfulSeller,
  type RunningPythonSeller,
} from '../../fixtures/sellers/spec-faithful-seller';
import { runCertification } from './run-certification';
import { memberWriter } from '../../gateway/directory/members';

// A member's way from pending to live, end to end on the store: the seller written from the
// specification alone (Python) is added pending, certified through the worker with the kit's
// real runs, goes live and serves a buyer; a faulty seller stays pending with its findings;
// two certify at once; a worker stopped mid-certification loses no job and runs none twice.

const readJson = (path: string): unknown => JSON.parse(readFileSync(packagePath(path), 'utf8'));
const SPEC_MAP = readJson(SPEC_FAITHFUL_STATE_MAP);
const MOCK_MAP = readJson('fixtures/state-maps/mock-seller.json');
// Bounded so the file stays quick: explore's share of a certification is the one that scales.
const BOUNDS = { exploreRuns: 30, exploreConcurrency: 2 };
const LEASE_MS = 60_000;

describe.each(availableTestBackends())('certification on %s', (backend) => {
  let store: Store;
  let python: RunningPythonSeller;
  let faulty: RunningMockSeller;
  let now = Date.parse('2026-12-01T09:00:00Z');
  const clock = () => now;
  const queue = () => createCertificationQueue({ store, clock, leaseMs: LEASE_MS });
  const real: CertificationRunner = (spec, signal) => runCertification(spec, signal, { bounds: BOUNDS });
  const member = async (id: string) =>
    (await store.query<{ status: string }>('SELECT status FROM members WHERE id = $1', [id])).rows[0].status;
  const addMember = (id: string, url: string, stateMap: unknown) =>
    store.query(`INSERT INTO members (id, name, seller_url, state_map) VALUES ($1, $1, $2, $3)`, [
      id,
      url,
      JSON.stringify(stateMap),
    ]);
  const certificates = async (memberId: string) =>
    (
      await store.query<{ job_id: string; verdict: string; findings: { rule: string }[]; report: { verify: unknown } }>(
        'SELECT job_id, verdict, findings, report FROM certificates WHERE member_id = $1',
        [memberId],
      )
    ).rows;

  beforeAll(async () => {
    [store, python, faulty] = await Promise.all([
      createTestStore({ backend }),
      startSpecFaithfulSeller(),
      startMockSeller({ faults: [{ service: 'item_inquiry', fault: { kind: 'wrong-original-part' } }] }),
    ]);
    // The seller written from the specification, as an operator adds it (the writer behind
    // `npm run members` and /internal/members): pending, with its state map, a location and an
    // account; the demo buyer is given that location (user locations are not the directory's).
    const members = memberWriter({ store });
    await members.create({ id: 'N7', name: 'Spec-faithful parts', sellerUrl: python.url, stateMap: SPEC_MAP }, 'ops');
    await members.addLocation('N7', { id: 'DEPOT-1', description: 'Depot 1', type: 2 }, 'ops');
    await members.addAccount('N7', { accountId: 'ACC-77', description: 'Demo garage' }, 'ops');
    await store.query(
      `INSERT INTO user_locations (user_id, location_id, member_id, account_id, can_order, sort_order)
       SELECT id, 'DEPOT-1', 'N7', 'ACC-77', true, 9 FROM users WHERE username = 'demo'`,
    );
    await addMember('MFAULT', `${faulty.url}/seller`, MOCK_MAP);
  }, 60_000);
  afterAll(async () => {
    python?.close();
    await faulty?.close();
    await store?.close();
  });

  const inquiryAtN7 = async () => {
    const app = createGateway({
      store,
      directory: createDirectory(store),
      sellerClient: createSellerClient({}),
      clock: () => Date.now(),
      config: gatewayConfig(),
      logger: () => {},
    });
    const token = await mintDevToken('dev-key-1', { issuedAt: Math.floor(Date.now() / 1000) });
    const response = await app.request(`http://127.0.0.1${V3_2}/item_inquiry`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        items: [{ id: '1', mfr_code: 'FRA', part_number: 'PH3614' }],
        locations: [{ id: 'DEPOT-1', member: 'N7', account: 'ACC-77' }],
      }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  it('refuses a buyer at the member while it is pending, before any seller call', async () => {
    const { status, body } = await inquiryAtN7();
    expect({ status, code: body.status_code }).toEqual({ status: 403, code: 3110 });
  });

  it('certifies two members at once: the spec-faithful seller goes live, the faulty one stays pending with its findings', async () => {
    const q = queue();
    const n7 = await q.request('N7', 'ops');
    const mfault = await q.request('MFAULT', 'ops');
    expect(await member('N7')).toBe('pending');
    // Each run waits until both are running: the test ends only if the worker runs two at once.
    let inFlight = 0;
    let bothRunning: () => void = () => {};
    const together = new Promise<void>((resolve) => (bothRunning = resolve));
    const wallMs: number[] = [];
    const worker = createCertificationWorker({
      queue: q,
      workerId: 'flow',
      concurrency: 2,
      run: async (spec, signal) => {
        if (++inFlight === 2) bothRunning();
        await together;
        const started = performance.now();
        try {
          return await real(spec, signal);
        } finally {
          wallMs.push(performance.now() - started);
        }
      },
    });
    await worker.drain();
    await worker.stop();
    console.info(`one certification, wall time: ${wallMs.map((ms) => `${Math.round(ms)} ms`).join(', ')} (${backend})`);

    const [passed] = await certificates('N7');
    expect(passed.findings, JSON.stringify(passed.findings)).toEqual([]);
    expect({ job: Number(passed.job_id), verdict: passed.verdict }).toEqual({ job: n7.job.id, verdict: 'passed' });
    expect(await member('N7')).toBe('live');
    const changes = await store.query<{ actor: string; action: string; detail: { after?: unknown } }>(
      `SELECT actor, action, detail FROM member_changes WHERE member_id = 'N7' ORDER BY id`,
    );
    expect(changes.rows.map((r) => [r.actor, r.action])).toEqual([
      ['ops', 'member.create'],
      ['ops', 'location.add'],
      ['ops', 'account.add'],
      ['certification', 'member.certified'],
    ]);
    expect(changes.rows.at(-1)?.detail.after).toEqual({ status: 'live' });

    const [failed] = await certificates('MFAULT');
    expect({ job: Number(failed.job_id), verdict: failed.verdict }).toEqual({ job: mfault.job.id, verdict: 'failed' });
    expect(failed.findings.map((f) => f.rule)).toContain('alternate.original-part');
    expect(failed.report.verify).toMatchObject({ ok: false });
    expect(await member('MFAULT')).toBe('pending');
  }, 180_000);

  it('serves a buyer at the newly live member through the gateway', async () => {
    const { status, body } = await inquiryAtN7();
    expect(status, JSON.stringify(body)).toBe(200);
    const items = body.items as { locations: { id: string }[] }[];
    expect(items[0].locations.map((l) => l.id)).toContain('DEPOT-1');
  });

  it('loses no job when a worker stops mid-certification, and runs none twice: the late finish is fenced off', async () => {
    await addMember('N7B', python.url, SPEC_MAP);
    const q = queue();
    const { job } = await q.request('N7B', 'ops');
    // Worker A claims it and then goes silent (no heartbeat, never releases): a process that died.
    let started: () => void = () => {};
    const claimed = new Promise<void>((resolve) => (started = resolve));
    let finishLate: () => void = () => {};
    const late = new Promise<void>((resolve) => (finishLate = resolve));
    let fenced: (() => void) | undefined;
    const refused = new Promise<void>((resolve) => (fenced = resolve));
    const a = createCertificationWorker({
      queue: q,
      workerId: 'a',
      heartbeatMs: 3_600_000,
      run: async () => {
        started();
        await late;
        return { kind: 'error', message: 'worker a was gone' };
      },
      onFinished: (finished) => {
        if ('fenced' in finished) fenced?.();
      },
    });
    void a.drain();
    await claimed;
    now += LEASE_MS + 1;
    const b = createCertificationWorker({ queue: q, workerId: 'b', run: real });
    await b.drain();
    finishLate();
    await refused;
    // Stopped, so neither claims a job of the next case once its own is done.
    await Promise.all([a.stop(), b.stop()]);
    const rows = await certificates('N7B');
    expect(rows.map((r) => [Number(r.job_id), r.verdict])).toEqual([[job.id, 'passed']]);
    const { rows: jobs } = await store.query<{ status: string; attempt: number; claimed_by: string }>(
      'SELECT status, attempt, claimed_by FROM certification_jobs WHERE member_id = $1',
      ['N7B'],
    );
    expect(jobs).toEqual([{ status: 'passed', attempt: 2, claimed_by: 'b' }]);
    expect(await member('N7B')).toBe('live');
  }, 120_000);

  it('hands its jobs back at once when stopped gracefully', async () => {
    await addMember('N7C', python.url, SPEC_MAP);
    const q = queue();
    const { job } = await q.request('N7C', 'ops');
    let started: () => void = () => {};
    const claimed = new Promise<void>((resolve) => (started = resolve));
    const worker = createCertificationWorker({
      queue: q,
      workerId: 'graceful',
      run: (spec, signal) => {
        started();
        return new Promise((resolve) =>
          signal.addEventListener('abort', () => resolve({ kind: 'error', message: 'stopped' })),
        );
      },
    });
    worker.start();
    await claimed;
    await worker.stop();
    const { rows } = await store.query<{ status: string; claimed_by: string | null; attempt: number }>(
      'SELECT status, claimed_by, attempt FROM certification_jobs WHERE id = $1',
      [job.id],
    );
    expect(rows).toEqual([{ status: 'queued', claimed_by: null, attempt: 1 }]);
    expect((await q.claim('next'))?.jobId).toBe(job.id); // another worker takes it at once, no lease to wait out
  });
});
