import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CURRENT_CONTRACT_MAJOR } from '../certification/certification-types';
import { availableTestBackends, createTestStore } from '../testing/test-store';
import type { Store } from '../store/store';
import type { ReplyCheck } from '../../contracts/index';
import { createConformanceCounter, MINUTE_MS, SAMPLES_PER_RULE } from './conformance-counter';
import { conformanceReport, type MemberConformance } from './conformance-figures';
import { productionReplayFile } from './production-replay-file';
import { brokenRules, type ReplyJudgement } from './reply-judgement';

// The counts made in the one pass reach the store added up (two instances on one store), the
// windows and "since the last certificate" read them back, samples stay bounded and carry no
// buyer identity, and a flush that fails loses nothing.

const T0 = Date.parse('2026-03-02T12:00:30.000Z');
const ok: ReplyCheck = { ok: true, errors: [], violations: [], notes: [] };
const echoBroken: ReplyCheck = {
  ok: false,
  errors: [],
  violations: [
    { rule: 'item.id-echo', path: '/items', message: 'item id i-1 is missing', id: 'i-1' },
    { rule: 'item.id-echo', path: '/items', message: 'item id i-2 is missing', id: 'i-2' },
  ],
  notes: [],
};
const request = (n: number) => ({
  service: 'item_inquiry',
  terminal_id: 'T-DEMO-1',
  locations: [{ id: 'L101', member: 'M100', account: 'A-1001' }],
  items: [{ id: `i-${n}`, mfr_code: 'ACME', part_number: `P${n}` }],
});
const judgement = (memberId: string, n: number, check: ReplyCheck): ReplyJudgement => ({
  memberId,
  operation: 'item-inquiry',
  request: request(n),
  replyText: `{"status_code":2000,"items":[] ,"n":${n}}`,
  reply: { status_code: 2000, items: [] },
  check,
});
const itemInquiry = (m: MemberConformance, window: keyof MemberConformance['windows']) =>
  m.windows[window].operations.find((o) => o.operation === 'item-inquiry')!;
const echo = (m: MemberConformance, window: keyof MemberConformance['windows']) =>
  itemInquiry(m, window).rules.find((r) => r.rule === 'item.id-echo')!;

describe.each(availableTestBackends())('conformance counts on %s', (backend) => {
  let store: Store;
  beforeAll(async () => {
    store = await createTestStore({ backend });
  });
  afterAll(() => store.close());

  it('adds up the counts of two instances, per window, with their denominators', async () => {
    let now = T0;
    const clock = () => now;
    const a = createConformanceCounter({ store, clock });
    const b = createConformanceCounter({ store, clock });
    const count = (counter: typeof a, j: ReplyJudgement) => counter.count(j, brokenRules(j.operation, j.check));
    for (let n = 0; n < 300; n++) count(n % 2 === 0 ? a : b, judgement('M100', n, n % 100 === 0 ? echoBroken : ok));
    now = T0 - 2 * 60 * 60_000; // two hours ago: in the day, not the hour
    for (let n = 0; n < 100; n++) count(a, judgement('M100', 1000 + n, n < 5 ? echoBroken : ok));
    now = T0;
    await Promise.all([a.flush(), b.flush()]);

    const m = (await conformanceReport(store, { clock, member: 'M100' })).members[0];
    expect(itemInquiry(m, 'hour')).toMatchObject({ judged: 300, nonconforming: 3, rate: 0.01 });
    expect(echo(m, 'hour')).toEqual({ rule: 'item.id-echo', broken: 3, rate: 0.01 });
    expect(itemInquiry(m, 'day')).toMatchObject({ judged: 400, nonconforming: 8 });
    expect(echo(m, 'week').broken).toBe(8);
    // No certificate: since counting began.
    expect(m.certificate).toBeNull();
    expect(itemInquiry(m, 'since_certificate').judged).toBe(400);
    expect(m.windows.since_certificate.from).toBe(
      new Date(Math.floor((T0 - 2 * 3_600_000) / MINUTE_MS) * MINUTE_MS).toISOString(),
    );
    // Every rule of the operation is listed, broken or not; an operation never judged has no rate.
    expect(itemInquiry(m, 'hour').rules.find((r) => r.rule === 'item.unknown-id')).toEqual({
      rule: 'item.unknown-id',
      broken: 0,
      rate: 0,
    });
    expect(m.windows.hour.operations.find((o) => o.operation === 'invoice')).toMatchObject({ judged: 0, rate: null });
    // The other seeded member is listed with nothing counted.
    const all = await conformanceReport(store, { clock });
    expect(all.members.map((x) => x.member)).toEqual(expect.arrayContaining(['M100', 'M200']));
    expect(
      itemInquiry(
        all.members.find((x) => x.member === 'M200')!,
        'week',
      ).judged,
    ).toBe(0);
  });

  it('counts since the last passing certificate of the current major', async () => {
    const clock = () => T0;
    const { rows } = await store.query<{ id: string }>(
      `INSERT INTO certification_jobs (member_id, status, contract_version, requested_by, requested_at, finished_at)
       VALUES ('M100', 'passed', $1, 'test', $2, $2) RETURNING id`,
      [`${CURRENT_CONTRACT_MAJOR}.0.0`, new Date(T0 - 30 * 60_000)],
    );
    await store.query(
      `INSERT INTO certificates (job_id, member_id, contract_version, contract_major, pact_digest, verdict, report,
         toolkit_version, issued_at) VALUES ($1, 'M100', $2, $3, 'sha256:x', 'passed', '{}', '0.1.0', $4)`,
      [rows[0].id, `${CURRENT_CONTRACT_MAJOR}.0.0`, CURRENT_CONTRACT_MAJOR, new Date(T0 - 30 * 60_000)],
    );
    const m = (await conformanceReport(store, { clock, member: 'M100' })).members[0];
    expect(m.certificate).toMatchObject({ issued_at: new Date(T0 - 30 * 60_000).toISOString() });
    // The replies of two hours ago came before it.
    expect(itemInquiry(m, 'since_certificate')).toMatchObject({ judged: 300, nonconforming: 3 });
    await store.query(`DELETE FROM certificates WHERE job_id = $1`, [rows[0].id]);
    await store.query(`DELETE FROM certification_jobs WHERE id = $1`, [rows[0].id]);
  });

  it('keeps the newest exchanges of each rule, the buyer identity removed, the reply as read', async () => {
    const clock = () => T0;
    const counter = createConformanceCounter({ store, clock });
    for (let n = 0; n < SAMPLES_PER_RULE + 7; n++) {
      const j = judgement('M200', n, echoBroken);
      counter.count(j, brokenRules(j.operation, j.check));
    }
    await counter.flush();
    const file = await productionReplayFile(store, 'M200', clock);
    expect(file.exchanges).toHaveLength(SAMPLES_PER_RULE);
    expect(file.exchanges[0]).toMatchObject({
      rule: 'item.id-echo',
      operation: 'item-inquiry',
      reply: `{"status_code":2000,"items":[] ,"n":${SAMPLES_PER_RULE + 6}}`,
      violations: [
        { path: '/items', id: 'i-1' },
        { path: '/items', id: 'i-2' },
      ],
    });
    expect(file.exchanges[0].request).not.toHaveProperty('terminal_id');
    expect(file.exchanges[0].request).toMatchObject({ locations: [{ account: 'A-1001' }] });
    expect((await productionReplayFile(store, 'M100', clock)).exchanges.length).toBeGreaterThan(0);
  });

  it('a flush that fails keeps its counts for the next', async () => {
    const clock = () => T0;
    let fail = true;
    const flaky: Store = {
      ...store,
      query: (sql, params) => store.query(sql, params),
      transaction: (work) => (fail ? Promise.reject(new Error('store down')) : store.transaction(work)),
    };
    const counter = createConformanceCounter({ store: flaky, clock });
    const before = itemInquiry((await conformanceReport(store, { clock, member: 'M200' })).members[0], 'hour').judged;
    for (let n = 0; n < 10; n++) counter.count(judgement('M200', n, ok), []);
    await expect(counter.flush()).rejects.toThrow('store down');
    counter.count(judgement('M200', 99, ok), []);
    fail = false;
    await counter.stop();
    const after = itemInquiry((await conformanceReport(store, { clock, member: 'M200' })).members[0], 'hour').judged;
    expect(after - before).toBe(11);
  });

  it('folds minute buckets older than eight days into their hour, the totals unchanged', async () => {
    const old = T0 - 9 * 24 * 3_600_000;
    let now = old;
    const counter = createConformanceCounter({ store, clock: () => now });
    for (let minute = 0; minute < 5; minute++) {
      now = old + minute * MINUTE_MS;
      counter.count(judgement('MOLD', minute, echoBroken), brokenRules('item-inquiry', echoBroken));
    }
    now = T0;
    await counter.flush(); // writes, then folds
    const { rows } = await store.query<{ minute: Date | string; judged: string }>(
      `SELECT minute, judged FROM conformance_replies WHERE member_id = 'MOLD'`,
    );
    expect(rows).toHaveLength(1);
    expect(Number(rows[0].judged)).toBe(5);
    const m = (await conformanceReport(store, { clock: () => T0, member: 'MOLD' })).members[0];
    expect(itemInquiry(m, 'since_certificate')).toMatchObject({ judged: 5, nonconforming: 5 });
    expect(echo(m, 'since_certificate').broken).toBe(5);
    expect(itemInquiry(m, 'week').judged).toBe(0);
  });
});
