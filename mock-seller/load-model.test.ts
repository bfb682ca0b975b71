import { describe, expect, it } from 'vitest';
import { checkSellerReply, type ItemInquirySellerRequest } from '../contracts/index';
import type { ScenarioLoad } from '../contracts/schemas/scenario';
import { createMockSeller } from './index';
import { readDefaultScenario } from './default-scenario';
import { createLoadModel, serviceTimeOf, stallWaitMs } from './load-model';
import { checkScenario } from './scenario-file';

// The scenario's load section: a capacity model (workers, seeded service time, a queue) and
// the cross-talk fault, which spoils replies only while enough requests are in flight.

const withLoad = (load: ScenarioLoad) => createMockSeller({ ...readDefaultScenario(), load });

const inquiry = (tag: string, part = { mfr_code: 'WIX', part_number: '51515' }): ItemInquirySellerRequest => ({
  service: 'item_inquiry',
  locations: [{ id: 'L101', member: 'M100', account: 'A-1001' }],
  items: [
    { id: `${tag}-1`, ...part },
    { id: `${tag}-2`, mfr_code: 'GAT', part_number: 'K060882' },
  ],
});

const send = async (seller: ReturnType<typeof createMockSeller>, body: object) => {
  const t0 = performance.now();
  const res = await seller.app.request('/seller', { method: 'POST', body: JSON.stringify(body) });
  const reply = (await res.json()) as unknown;
  return { status: res.status, reply, ms: performance.now() - t0 };
};

const brokenRules = (request: ItemInquirySellerRequest, reply: unknown) =>
  checkSellerReply('item-inquiry', request, reply).violations.map((v) => v.rule);

describe('the capacity model', () => {
  it('serves N at once and queues the rest: with 2 workers of 60 ms, the 3rd and 4th wait for a worker', async () => {
    const seller = withLoad({ workers: 2, service_time: { ms: 60 } });
    const answers = await Promise.all([0, 1, 2, 3].map((i) => send(seller, inquiry(`r${i}`))));
    const times = answers.map((a) => a.ms).sort((a, b) => a - b);
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(times[0]).toBeGreaterThanOrEqual(55);
    // Two waited one service time in the queue, then were served.
    expect(times[2]).toBeGreaterThanOrEqual(115);
    expect(times[3]).toBeGreaterThanOrEqual(115);
  });

  it('draws service times from the seed: the same seed the same times, another seed others', () => {
    const load: ScenarioLoad = { seed: 7, service_time: { distribution: 'log-normal', median_ms: 50, sigma: 0.5 } };
    const times = Array.from({ length: 400 }, (_, n) => serviceTimeOf(load, n));
    expect(Array.from({ length: 400 }, (_, n) => serviceTimeOf(load, n))).toEqual(times);
    expect(Array.from({ length: 400 }, (_, n) => serviceTimeOf({ ...load, seed: 8 }, n))).not.toEqual(times);
    const median = [...times].sort((a, b) => a - b)[200];
    expect(median).toBeGreaterThan(40);
    expect(median).toBeLessThan(60);
    const uniform = Array.from({ length: 200 }, (_, n) =>
      serviceTimeOf({ service_time: { distribution: 'uniform', min_ms: 10, max_ms: 20 } }, n),
    );
    expect(Math.min(...uniform)).toBeGreaterThanOrEqual(10);
    expect(Math.max(...uniform)).toBeLessThanOrEqual(20);
  });

  it('refuses a service time missing what its distribution needs, naming the field', () => {
    expect(() =>
      checkScenario({ ...readDefaultScenario(), load: { service_time: { distribution: 'uniform', min_ms: 5 } } }),
    ).toThrow(expect.objectContaining({ issues: [expect.objectContaining({ path: '/load/service_time' })] }));
    expect(() => checkScenario({ ...readDefaultScenario(), load: { workers: 0 } })).toThrow(
      expect.objectContaining({ issues: [expect.objectContaining({ path: '/load/workers' })] }),
    );
  });
});

describe('the stall', () => {
  it('holds what arrives in the last for_ms of every every_ms until the stall ends, nothing else', () => {
    const stall = { every_ms: 5000, for_ms: 1000 };
    expect(stallWaitMs(stall, 0)).toBe(0);
    expect(stallWaitMs(stall, 3999)).toBe(0);
    expect(stallWaitMs(stall, 4000)).toBe(1000);
    expect(stallWaitMs(stall, 4600)).toBe(400);
    expect(stallWaitMs(stall, 9250)).toBe(750);
    expect(stallWaitMs(undefined, 4600)).toBe(0);
  });

  it('admits a request that arrives in a stall when the stall ends', async () => {
    // The model's clock says 150 ms since loading: in the stall of a 400 ms period's last 300 ms, 250 ms to go.
    let clock = 0;
    const model = createLoadModel({ stall: { every_ms: 400, for_ms: 300 } }, () => clock);
    clock = 150;
    const t0 = performance.now();
    const admitted = await model.admit(JSON.stringify(inquiry('s')), new AbortController().signal);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(245);
    admitted.release();
    clock = 420; // the next period's open part
    const t1 = performance.now();
    (await model.admit(JSON.stringify(inquiry('t')), new AbortController().signal)).release();
    expect(performance.now() - t1).toBeLessThan(100);
  });

  it('answers correctly through the endpoint', async () => {
    const seller = withLoad({ stall: { every_ms: 400, for_ms: 50 } });
    const request = inquiry('s');
    const answer = await send(seller, request);
    expect(answer.status).toBe(200);
    expect(brokenRules(request, answer.reply)).toEqual([]);
  });

  it('refuses a stall as long as its period, naming the field', () => {
    expect(() => checkScenario({ ...readDefaultScenario(), load: { stall: { every_ms: 100, for_ms: 100 } } })).toThrow(
      /refers to things it does not define/,
    );
    try {
      checkScenario({ ...readDefaultScenario(), load: { stall: { every_ms: 100, for_ms: 100 } } });
    } catch (error) {
      expect((error as { issues: { path: string; message: string }[] }).issues).toContainEqual(
        expect.objectContaining({
          path: '/load/stall/for_ms',
          message: 'for_ms must be below every_ms (else it never answers)',
        }),
      );
    }
  });
});

describe('the cross-talk fault', () => {
  it('answers correctly alone and at K in flight, and mixes item ids beyond K', async () => {
    const seller = withLoad({ service_time: { ms: 30 }, cross_talk: { above: 3, mix: 'item-id' } });
    const alone = await send(seller, inquiry('alone'));
    expect(brokenRules(inquiry('alone'), alone.reply)).toEqual([]);

    const three = await Promise.all([0, 1, 2].map((i) => send(seller, inquiry(`k${i}`))));
    three.forEach((a, i) => expect(brokenRules(inquiry(`k${i}`), a.reply)).toEqual([]));

    const six = await Promise.all([0, 1, 2, 3, 4, 5].map((i) => send(seller, inquiry(`c${i}`))));
    const broken = six.map((a, i) => brokenRules(inquiry(`c${i}`), a.reply));
    // Replies leave one by one: the first three are built with more than 3 in flight.
    expect(broken.slice(0, 3).every((rules) => rules.includes('item.unknown-id'))).toBe(true);
    expect(broken.slice(3)).toEqual([[], [], []]);
    // The foreign id is another request's own.
    const ids = (six[0].reply as { items: { id: string }[] }).items.map((e) => e.id);
    expect(ids.some((id) => /^c[1-5]-[12]$/.test(id))).toBe(true);
    const spoiled = seller.journal.entries({}).filter((e) => e.faults.includes('cross-talk'));
    expect(spoiled).toHaveLength(3);
    expect(spoiled[0].fault_source).toBe('load');
  });

  it('mixes original_part values of alternates with mix original-part, the same way under the same seed', async () => {
    const run = async () => {
      const seller = withLoad({ seed: 3, service_time: { ms: 20 }, cross_talk: { above: 1, mix: 'original-part' } });
      const parts = [
        { mfr_code: 'WIX', part_number: '51515' },
        { mfr_code: 'MOT', part_number: 'BRF1478' },
        { mfr_code: 'BOS', part_number: '0242236562' },
      ];
      const answers = await Promise.all(parts.map((p, i) => send(seller, inquiry(`p${i}`, p))));
      return answers.map((a, i) => ({ rules: brokenRules(inquiry(`p${i}`, parts[i]), a.reply), reply: a.reply }));
    };
    const first = await run();
    expect(first.map((a) => a.rules.includes('alternate.original-part'))).toEqual([true, true, false]);
    expect(await run()).toEqual(first);
  });

  it('comes and goes with the scenario loaded through the control API', async () => {
    const seller = createMockSeller(readDefaultScenario());
    const six = () => Promise.all([0, 1, 2, 3, 4, 5].map((i) => send(seller, inquiry(`s${i}`))));
    expect((await six()).every((a, i) => brokenRules(inquiry(`s${i}`), a.reply).length === 0)).toBe(true);
    seller.loadScenario({
      ...readDefaultScenario(),
      load: { service_time: { ms: 20 }, cross_talk: { above: 2, mix: 'item-id' } },
    });
    expect((await six()).some((a, i) => brokenRules(inquiry(`s${i}`), a.reply).includes('item.unknown-id'))).toBe(true);
    seller.loadScenario(readDefaultScenario());
    expect((await six()).every((a, i) => brokenRules(inquiry(`s${i}`), a.reply).length === 0)).toBe(true);
  });

  it('strikes only the share of replies its probability says', async () => {
    const seller = withLoad({ service_time: { ms: 20 }, cross_talk: { above: 1, mix: 'item-id', probability: 0.5 } });
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => send(seller, inquiry(`q${i}`))));
    const spoiled = answers.filter((a, i) => brokenRules(inquiry(`q${i}`), a.reply).length > 0).length;
    expect(spoiled).toBeGreaterThan(8);
    expect(spoiled).toBeLessThan(32);
  });
});
