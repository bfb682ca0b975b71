import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../store/store';
import { availableTestBackends, createTestStore } from '../testing/test-store';
import { createInternalApi } from './internal-api';
import { DEV_INTERNAL_API_TOKEN } from './internal-api-config';
import { createLocalAddressValidator } from '../address/local-address-validator';

// The certification routes through the whole internal API (credential, guards, error body):
// each refusal names the field or rule, is a 4xx, and leaves nothing written.

const STATE_MAP = { defaults: { member: 'N7', account: 'ACC-77', location_id: 'DEPOT-1' }, states: {} };

describe.each(availableTestBackends())('the certification routes on %s', (backend) => {
  let store: Store;
  let api: ReturnType<typeof createInternalApi>;
  let woken = 0;
  const call = (method: 'GET' | 'POST', path: string, body?: unknown, token = DEV_INTERNAL_API_TOKEN) =>
    api.request(`http://127.0.0.1${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
  const written = async () => {
    const { rows } = await store.query<{ jobs: string; changes: string }>(
      `SELECT (SELECT count(*) FROM certification_jobs) AS jobs, (SELECT count(*) FROM member_changes) AS changes`,
    );
    return { jobs: Number(rows[0].jobs), changes: Number(rows[0].changes) };
  };

  beforeAll(async () => {
    store = await createTestStore({ backend });
    const add = (id: string, status: string, stateMap: unknown) =>
      store.query(
        `INSERT INTO members (id, name, seller_url, status, state_map) VALUES ($1, $1, 'http://s/seller', $2, $3)`,
        [id, status, stateMap === null ? null : JSON.stringify(stateMap)],
      );
    await add('READY', 'pending', STATE_MAP);
    await add('SUSP', 'suspended', STATE_MAP);
    await add('NOMAP', 'pending', null);
    await add('BADMAP', 'pending', { defaults: { member: '<your member id>' }, states: {} });
    api = createInternalApi({
      store,
      addressValidator: createLocalAddressValidator(),
      config: { token: DEV_INTERNAL_API_TOKEN },
      certificationWorker: { wake: () => void woken++ },
      log: () => {},
    });
  }, 60_000);
  afterAll(async () => {
    await store?.close();
  });

  it('refuses bad input with a 4xx naming the field or rule, and writes nothing', async () => {
    const cases: [string, Response, number, RegExp, string][] = [
      [
        'unknown member',
        await call('POST', '/internal/members/NOPE/certifications'),
        404,
        /unknown member NOPE/,
        '/id',
      ],
      ['suspended', await call('POST', '/internal/members/SUSP/certifications'), 409, /suspended/, '/id'],
      [
        'no state map',
        await call('POST', '/internal/members/NOMAP/certifications'),
        422,
        /state_map is required/,
        '/state_map',
      ],
      [
        'a placeholder left in',
        await call('POST', '/internal/members/BADMAP/certifications'),
        422,
        /state-map schema/,
        '/state_map/defaults/member',
      ],
      [
        'a body that is no object',
        await call('POST', '/internal/members/READY/certifications', '[1]'),
        400,
        /JSON object/,
        '',
      ],
      [
        'requestedBy blank',
        await call('POST', '/internal/members/READY/certifications', { requestedBy: ' ' }),
        400,
        /requestedBy/,
        '/requestedBy',
      ],
      ['not JSON', await call('POST', '/internal/members/READY/certifications', '{'), 400, /JSON/, ''],
      ['job id no number', await call('GET', '/internal/certifications/x1'), 400, /jobId/, '/jobId'],
      [
        'unknown job',
        await call('GET', '/internal/certifications/999'),
        404,
        /unknown certification job 999/,
        '/jobId',
      ],
      ['unknown member read', await call('GET', '/internal/members/NOPE/certifications'), 404, /unknown member/, '/id'],
      ['needs missing', await call('GET', '/internal/certifications'), 400, /needs must be/, 'query:needs'],
    ];
    for (const [name, response, status, message, path] of cases) {
      const body = (await response.json()) as { message: string; errors?: { path: string; rule?: string }[] };
      expect({ name, status: response.status }).toEqual({ name, status });
      expect(body.message, name).toMatch(message);
      expect(body.errors?.[0]?.path, name).toBe(path);
    }
    expect(await written()).toEqual({ jobs: 0, changes: 0 });
    expect((await call('POST', '/internal/members/READY/certifications', {}, 'wrong')).status).toBe(401);
  });

  it('queues a job (202), answers the open one when asked again, and reads it back', async () => {
    const first = await call('POST', '/internal/members/READY/certifications', { requestedBy: 'ops-alice' });
    expect(first.status).toBe(202);
    const { job, created } = (await first.json()) as {
      job: { id: number; status: string; requestedBy: string };
      created: boolean;
    };
    expect({ created, status: job.status, requestedBy: job.requestedBy }).toEqual({
      created: true,
      status: 'queued',
      requestedBy: 'ops-alice',
    });
    expect(woken).toBe(1);
    const again = (await (await call('POST', '/internal/members/READY/certifications')).json()) as {
      job: { id: number };
      created: boolean;
    };
    expect(again).toMatchObject({ created: false, job: { id: job.id } });
    const read = (await (await call('GET', `/internal/certifications/${job.id}`)).json()) as unknown;
    expect(read).toMatchObject({ job: { id: job.id, memberId: 'READY' }, certificate: null });
    const listed = (await (await call('GET', '/internal/members/READY/certifications')).json()) as {
      jobs: unknown[];
      certificates: unknown[];
    };
    expect(listed.jobs).toHaveLength(1);
    expect(listed.certificates).toEqual([]);
    const needs = (await (await call('GET', '/internal/certifications?needs=certification')).json()) as {
      members: { memberId: string; openJobId: number | null }[];
    };
    expect(needs.members.find((m) => m.memberId === 'READY')?.openJobId).toBe(job.id);
    expect(needs.members.some((m) => m.memberId === 'SUSP')).toBe(false);
  });
});
