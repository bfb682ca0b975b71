import { describe, expect, it, afterAll, beforeAll } from 'vitest';
import { readFileSync } from 'node:fs';
import type { Store } from '../gateway/store/store';
import { createTestStore } from '../gateway/testing/test-store';
import { createCertificationQueue } from '../gateway/certification/certification-queue';
import { createCertificationWorker } from '../gateway/certification/certification-worker';
import { startMockSeller, type RunningMockSeller } from '../mock-seller/index';
import { packagePath } from '../shared/package-root';
import { runCertificationCommand, type CertificationIo } from './certification';
import { storeCertificationBackend } from './certification/certification-backend';
import { runCertification } from './certification/run-certification';

// npm run certification in-process, on the store: its exit codes, its refusals by name, and
// `request --wait` certifying here when nothing else runs the queue (exit 1: not passed).

let store: Store;
let seller: RunningMockSeller;
beforeAll(async () => {
  [store, seller] = await Promise.all([
    createTestStore(),
    startMockSeller({ faults: [{ service: 'item_inquiry', fault: { kind: 'wrong-original-part' } }] }),
  ]);
  await store.query(`INSERT INTO members (id, name, seller_url, state_map) VALUES ('MF', 'Faulty', $1, $2)`, [
    `${seller.url}/seller`,
    readFileSync(packagePath('fixtures/state-maps/mock-seller.json'), 'utf8'),
  ]);
}, 60_000);
afterAll(async () => {
  await seller?.close();
  await store?.close();
});

async function run(argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CertificationIo = {
    backend: storeCertificationBackend(store),
    out: (line) => out.push(line),
    err: (line) => err.push(line),
    localWorker: () => {
      const worker = createCertificationWorker({
        queue: createCertificationQueue({ store }),
        workerId: 'command-test',
        run: (spec, signal) => runCertification(spec, signal, { bounds: { exploreRuns: 10 } }),
      });
      worker.start();
      return worker;
    },
    sleep: () => new Promise((resolve) => setTimeout(resolve, 50)),
  };
  return { code: await runCertificationCommand(argv, io), out: out.join('\n'), err: err.join('\n') };
}

describe('npm run certification', () => {
  it('answers bad usage with 2 and the usage, --help with 0', async () => {
    expect((await run([])).code).toBe(2);
    expect(await run(['frobnicate'])).toMatchObject({
      code: 2,
      err: expect.stringMatching(/unknown command frobnicate/),
    });
    expect(await run(['show', 'x'])).toMatchObject({ code: 2, err: expect.stringMatching(/positive whole number/) });
    expect(await run(['request'])).toMatchObject({ code: 2 });
    expect(await run(['--help'])).toMatchObject({ code: 0, out: expect.stringMatching(/request <member>/) });
  });

  it('refuses an unknown member and one without a state map with 1, naming why', async () => {
    expect(await run(['request', 'NOPE'])).toMatchObject({
      code: 1,
      err: expect.stringMatching(/unknown member NOPE/),
    });
    expect(await run(['request', 'M100'])).toMatchObject({
      code: 1,
      err: expect.stringMatching(/state_map is required/),
    });
  });

  it('lists the members needing certification, as text and as JSON', async () => {
    expect((await run(['needs'])).out).toMatch(/^M100\s+live\s+never-certified$/m);
    const { members } = JSON.parse((await run(['needs', '--json'])).out) as { members: { memberId: string }[] };
    expect(members.map((m) => m.memberId)).toContain('MF');
  });

  it('request --wait certifies, shows the findings and exits 1 when the verdict is failed', async () => {
    const result = await run(['request', 'MF', '--wait', '--by', 'ops-test']);
    expect(result.code, result.err).toBe(1);
    expect(result.out).toMatch(/member MF {2}failed/);
    expect(result.out).toMatch(/CERTIFICATE|FAILED for contract/);
    expect(result.out).toMatch(/alternate\.original-part/);
    const listed = JSON.parse((await run(['list', 'MF', '--json'])).out) as { jobs: { requestedBy: string }[] };
    expect(listed.jobs[0].requestedBy).toBe('cli:ops-test');
  }, 120_000);
});
