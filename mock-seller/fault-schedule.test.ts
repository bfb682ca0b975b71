import { describe, expect, it } from 'vitest';
import { checkSellerReply, type ItemInquirySellerRequest } from '../contracts/index';
import { createMockSeller } from './app';
import { readDefaultScenario } from './default-scenario';
import { draw, latencyMs } from './fault-schedule';

// Seeded fault schedules: a probability and a seed strike the same items of the same requests
// on every replay, whatever the order; the journal says which exchange got which fault.

const PARTS = [
  ['WIX', '51515'],
  ['MOT', 'BRF1478'],
  ['GAT', 'K060882'],
  ['NGK', 'BKR5E'],
  ['ACD', '41-110'],
  ['DOR', '917-030'],
  ['BOS', '0242236562'],
  ['GAT', '22433'],
] as const;

const requests: ItemInquirySellerRequest[] = Array.from({ length: 120 }, (_, n) => ({
  service: 'item_inquiry',
  locations: [{ id: 'L101', member: 'M100', account: 'A-1001' }],
  items: PARTS.map(([mfr_code, part_number], i) => ({ id: `r${n}-i${i}`, mfr_code, part_number })),
}));

async function run(seller: ReturnType<typeof createMockSeller>, reqs: ItemInquirySellerRequest[]) {
  const broken: string[] = [];
  for (const request of reqs) {
    const reply = await (await seller.app.request('/seller', { method: 'POST', body: JSON.stringify(request) })).json();
    for (const v of checkSellerReply('item-inquiry', request, reply).violations) broken.push(`${v.rule} ${v.id}`);
  }
  return { broken, journal: seller.journal.entries().map((e) => e.faults) };
}

const addRule = async (seller: ReturnType<typeof createMockSeller>, rule: object) => {
  const response = await seller.app.request('/__admin/faults', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(rule),
  });
  return { status: response.status, body: await response.json() };
};

describe('seeded fault schedules', () => {
  it('spoil a share of alternates near the probability, the same ones on every replay, in any order', async () => {
    const seller = createMockSeller(await readDefaultScenario());
    const rule = { service: 'item_inquiry', fault: { kind: 'wrong-original-part' }, probability: 0.1, seed: 42 };
    expect((await addRule(seller, rule)).status).toBe(201);
    const first = await run(seller, requests);
    // Five of the eight parts have related parts: 600 candidates, ~60 expected.
    expect(first.broken.length).toBeGreaterThan(30);
    expect(first.broken.length).toBeLessThan(100);
    expect(first.broken.every((b) => b.startsWith('alternate.original-part '))).toBe(true);
    // Only items whose part has an alternate, superseded or equivalent part are struck.
    expect(first.broken.some((b) => b.endsWith('-i5') || b.endsWith('-i7'))).toBe(false);
    // The journal names the fault, the item and the schedule for each exchange.
    const struck = first.journal.flat();
    expect(struck[0]).toMatch(/^wrong-original-part;id=r\d+-i\d;scheduled=fault-1\/seed=42\/p=0\.1$/);

    seller.reset();
    expect((await addRule(seller, rule)).status).toBe(201);
    const reversed = await run(seller, [...requests].reverse());
    expect([...reversed.broken].sort()).toEqual([...first.broken].sort());

    seller.reset();
    await addRule(seller, { ...rule, seed: 43 });
    expect((await run(seller, requests)).broken.sort()).not.toEqual([...first.broken].sort());
  });

  it('strike the one spoiled item again when it is asked for alone (how a shrunk failure reproduces)', async () => {
    const seller = createMockSeller(await readDefaultScenario());
    await addRule(seller, { service: 'item_inquiry', fault: { kind: 'drop-id' }, probability: 0.05, seed: 7 });
    const { broken } = await run(seller, requests.slice(0, 40));
    expect(broken.length).toBeGreaterThan(0);
    const [, id] = broken[0].split(' ');
    const asked = requests.flatMap((r) => r.items).find((i) => i.id === id)!;
    const alone = await run(seller, [{ ...requests[0], items: [asked] }]);
    expect(alone.broken).toEqual([`item.id-echo ${id}`]);
  });

  it('draw latency fixed or log-normal, replayable from the seed', async () => {
    const seeded = (n: number) =>
      latencyMs(
        { kind: 'latency', distribution: 'log-normal', median_ms: 40, sigma: 0.8 },
        (() => {
          let k = 0;
          return () => draw(5, String(n), String(k++));
        })(),
      );
    const delays = Array.from({ length: 4000 }, (_, n) => seeded(n)).sort((a, b) => a - b);
    expect(delays[2000]).toBeGreaterThan(34);
    expect(delays[2000]).toBeLessThan(46);
    expect(delays[3960]).toBeGreaterThan(160); // a long tail: e^(0.8 × 2.33) × 40 ≈ 258 at the 99th percentile
    expect(seeded(17)).toBe(seeded(17));
    expect(latencyMs({ kind: 'latency', distribution: 'fixed', ms: 25 })).toBe(25);

    const seller = createMockSeller(await readDefaultScenario());
    const added = await addRule(seller, {
      service: 'item_inquiry',
      fault: { kind: 'latency', distribution: 'log-normal', median_ms: 1, sigma: 0.5 },
      probability: 1,
      seed: 3,
    });
    expect(added.status).toBe(201);
    await run(seller, requests.slice(0, 3));
    const once = seller.journal.entries().map((e) => e.faults);
    seller.journal.clear();
    await run(seller, requests.slice(0, 3));
    expect(seller.journal.entries().map((e) => e.faults)).toEqual(once);
    expect(once[0][0]).toMatch(/^latency;ms=\d+;scheduled=fault-1\/seed=3\/p=1$/);
  });

  it('refuse a log-normal latency without its median, naming the field', async () => {
    const seller = createMockSeller(await readDefaultScenario());
    const refused = await addRule(seller, {
      service: 'item_inquiry',
      fault: { kind: 'latency', distribution: 'log-normal' },
      probability: 0.5,
    });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain('/fault/median_ms');
    expect(
      (await addRule(seller, { service: 'item_inquiry', fault: { kind: 'drop-id' }, probability: 1.5 })).status,
    ).toBe(400);
  });
});
