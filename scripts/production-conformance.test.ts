import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockSeller, type RunningMockSeller } from '../mock-seller/index';
import { availableTestBackends, createTestStore } from '../gateway/testing/test-store';
import { createDirectory } from '../gateway/directory/create-directory';
import { createSellerClient } from '../gateway/seller-client/seller-client';
import type { SellerClient } from '../gateway/seller-client/seller-client.types';
import { createGateway, type Gateway } from '../gateway/app';
import { gatewayConfig } from '../gateway/gateway-config';
import { createGatewayMetrics, type GatewayMetrics } from '../gateway/metrics/gateway-metrics';
import { createConformanceCounter, type ConformanceCounter } from '../gateway/conformance/conformance-counter';
import type { ConformanceReport, MemberConformance } from '../gateway/conformance/conformance-figures';
import { createInternalApi } from '../gateway/internal-api/internal-api';
import { DEV_INTERNAL_API_TOKEN } from '../gateway/internal-api/internal-api-config';
import { createLocalAddressValidator } from '../gateway/address/local-address-validator';
import { mintDevToken } from '../gateway/auth/dev-keys';
import type { Store } from '../gateway/store/store';
import type { ProductionReplayFile } from '../contracts/production-replay';
import { useTemporaryDirectory } from '../shared/testing/temporary-directory';
import { runInProcess } from '../cli/testing/run-in-process';
import { replayCommand } from '../cli/replay-command';

// Production conformance end to end. Member M100's seller drops the item id from 1% of its
// replies (a seeded mock-seller fault: item.id-echo, decided per item, so the same request
// meets it again); M200's seller is honest. 10,000 buyer inquiries go through two gateway
// instances on one store, half each. Then the internal API's JSON, its page and the two
// instances' /metrics added up all say 1% (± 0.3) for item.id-echo at M100 and 0 at M200;
// M100's replay file, run with the kit against M100's seller, fails the same rule at every
// exchange, and against an honest seller no longer does; M200's replay file is empty.

const REQUESTS = Number(process.env.CONFORMANCE_REQUESTS ?? 10_000);
const IN_FLIGHT = 16;
const RULE = 'item.id-echo';
const auth = { authorization: `Bearer ${DEV_INTERNAL_API_TOKEN}` };

interface Instance {
  app: Gateway;
  metrics: GatewayMetrics;
  conformance: ConformanceCounter;
  sellerClient: SellerClient;
}

const itemInquiry = (m: MemberConformance) => m.windows.hour.operations.find((o) => o.operation === 'item-inquiry')!;
const brokenOf = (m: MemberConformance, rule: string) => itemInquiry(m).rules.find((r) => r.rule === rule)!;

const conformance = async (api: ReturnType<typeof createInternalApi>, member: string) =>
  (await (await api.request(`/internal/conformance/${member}`, { headers: auth })).json()) as MemberConformance;

/** A counter's value summed over every instance's exposition, as Prometheus' sum() would. */
function summed(expositions: string[], name: string, labels: Record<string, string>): number {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  let total = 0;
  for (const text of expositions)
    for (const line of text.split('\n')) {
      if (!line.startsWith(`${name}{`)) continue;
      const labelText = line.slice(name.length + 1, line.indexOf('}'));
      if (wanted.every((w) => labelText.split(',').includes(w))) total += Number(line.slice(line.lastIndexOf(' ') + 1));
    }
  return total;
}

describe.each(availableTestBackends())('production conformance through two gateways on %s', (backend) => {
  const dir = useTemporaryDirectory('production-conformance');
  let faulty: RunningMockSeller;
  let honest: RunningMockSeller;
  let store: Store;
  let instances: Instance[];
  let internal: ReturnType<typeof createInternalApi>[];
  const statuses = new Map<number, number>();

  beforeAll(async () => {
    faulty = await startMockSeller({
      faults: [{ service: 'item_inquiry', fault: { kind: 'drop-id' }, probability: 0.01, seed: 11 }],
    });
    honest = await startMockSeller();
    store = await createTestStore({ backend, sellerUrl: `${honest.url}/seller` });
    await store.query(`UPDATE members SET seller_url = $1 WHERE id = 'M100'`, [`${faulty.url}/seller`]);
    // Every reply is to be judged: no deadline is what this measures (a timeout is no reply).
    await store.query(`UPDATE members SET timeout_ms = 120000`);
    const config = gatewayConfig({ protection: { rateLimit: 1_000_000, breakerFailures: 1_000_000 } });
    instances = [0, 1].map(() => {
      const metrics = createGatewayMetrics({ store, processMetrics: false });
      const conformance = createConformanceCounter({ store });
      const sellerClient = createSellerClient();
      const app = createGateway({
        store,
        directory: createDirectory(store),
        sellerClient,
        config,
        logger: false,
        metrics,
        conformance,
      });
      return { app, metrics, conformance, sellerClient };
    });
    internal = instances.map((instance) =>
      createInternalApi({
        store,
        addressValidator: createLocalAddressValidator(),
        config: { token: DEV_INTERNAL_API_TOKEN },
        metrics: instance.metrics,
        log: () => {},
      }),
    );
    const token = await mintDevToken('dev-key-1');
    let next = 0;
    const started = performance.now();
    const worker = async () => {
      for (let n = next++; n < REQUESTS; n = next++) {
        const response = await instances[n % 2].app.request('/json/federated/v3_2/item_inquiry', {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({ items: [{ id: `q-${n}`, mfr_code: 'WIX', part_number: '51515' }] }),
        });
        await response.arrayBuffer();
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
    console.error(
      `production-conformance (${backend}): ${REQUESTS} buyer requests in ${Math.round(performance.now() - started)} ms`,
    );
    await Promise.all(instances.map((i) => i.conformance.stop()));
  }, 300_000);

  afterAll(async () => {
    await Promise.all(instances?.map((i) => i.sellerClient.close()) ?? []);
    await store?.close();
    await faulty?.close();
    await honest?.close();
  });

  it('every request was answered: 502 exactly where M100 broke the rule (strict), 200 elsewhere', async () => {
    const m100 = (await (
      await internal[0].request('/internal/conformance/M100', { headers: auth })
    ).json()) as MemberConformance;
    expect(Object.fromEntries(statuses)).toEqual({
      200: REQUESTS - brokenOf(m100, RULE).broken,
      502: brokenOf(m100, RULE).broken,
    });
  });

  it('the JSON, from either instance, counts every reply of both and shows 1% (± 0.3) for the one rule', async () => {
    const reports = await Promise.all(
      internal.map(async (api) => {
        const response = await api.request('/internal/conformance', { headers: auth });
        expect(response.status).toBe(200);
        return (await response.json()) as ConformanceReport;
      }),
    );
    expect(reports[1].members).toEqual(reports[0].members);
    const m100 = reports[0].members.find((m) => m.member === 'M100')!;
    const m200 = reports[0].members.find((m) => m.member === 'M200')!;
    expect(itemInquiry(m100).judged).toBe(REQUESTS);
    expect(itemInquiry(m200).judged).toBe(REQUESTS);
    const rate = brokenOf(m100, RULE).rate!;
    expect(Math.abs(rate - 0.01)).toBeLessThanOrEqual(0.003);
    // Exactly one rule broke: every other rule of the operation at 0, and the any-rule count is the rule's.
    expect(
      itemInquiry(m100)
        .rules.filter((r) => r.broken > 0)
        .map((r) => r.rule),
    ).toEqual([RULE]);
    expect(itemInquiry(m100).nonconforming).toBe(brokenOf(m100, RULE).broken);
    expect(itemInquiry(m200)).toMatchObject({ nonconforming: 0, rate: 0 });
    expect(m200.samples).toBe(0);
    // Each window holds the same, all of it having happened just now; no certificate: since counting began.
    for (const w of ['day', 'week', 'since_certificate'] as const)
      expect(m100.windows[w].operations[0]).toEqual(m100.windows.hour.operations[0]);
    const one = await internal[1].request('/internal/conformance/M100', { headers: auth });
    expect(((await one.json()) as MemberConformance).windows.hour).toEqual(m100.windows.hour);
  });

  it('the page shows the same figures', async () => {
    const page = await internal[0].request('/inspector/conformance', { headers: auth });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    const cell = (member: string, rule: string) => {
      const match = new RegExp(
        `data-member="${member}" data-operation="item-inquiry" data-rule="${rule.replace(/[.*]/g, '\\$&')}" data-window="hour" data-broken="(\\d+)" data-judged="(\\d+)">[^<]*\\(([\\d.]+)%\\)`,
      ).exec(html);
      expect(match, `${member} ${rule}`).not.toBeNull();
      return { broken: Number(match![1]), judged: Number(match![2]), percent: Number(match![3]) };
    };
    const report = (await (
      await internal[0].request('/internal/conformance', { headers: auth })
    ).json()) as ConformanceReport;
    const m100 = report.members.find((m) => m.member === 'M100')!;
    const shown = cell('M100', RULE);
    expect(shown).toEqual({
      broken: brokenOf(m100, RULE).broken,
      judged: REQUESTS,
      percent: Number((brokenOf(m100, RULE).rate! * 100).toFixed(2)),
    });
    expect(Math.abs(shown.percent - 1)).toBeLessThanOrEqual(0.3);
    expect(cell('M200', '*')).toEqual({ broken: 0, judged: REQUESTS, percent: 0 });
    expect(html).toContain('href="/inspector/conformance/M100/replay"');
  });

  it('Prometheus, the two instances added up, has the same numerator over its denominator', async () => {
    const expositions = await Promise.all(
      internal.map(async (api) => (await api.request('/metrics', { headers: auth })).text()),
    );
    const labels = { member: 'M100', operation: 'item-inquiry' };
    const judged = summed(expositions, 'gateway_replies_judged_total', labels);
    const broken = summed(expositions, 'gateway_replies_broken_total', { ...labels, rule: RULE });
    expect(judged).toBe(REQUESTS);
    // Each instance judged its own half: neither alone holds the whole.
    expect(summed([expositions[0]], 'gateway_replies_judged_total', labels)).toBe(REQUESTS / 2);
    const report = (await (
      await internal[0].request('/internal/conformance/M100', { headers: auth })
    ).json()) as MemberConformance;
    expect(broken).toBe(brokenOf(report, RULE).broken);
    expect(Math.abs(broken / judged - 0.01)).toBeLessThanOrEqual(0.003);
    expect(
      summed(expositions, 'gateway_replies_nonconforming_total', { member: 'M200', operation: 'item-inquiry' }),
    ).toBe(0);
    expect(summed(expositions, 'gateway_replies_judged_total', { member: 'M200', operation: 'item-inquiry' })).toBe(
      REQUESTS,
    );
  });

  it("M100's replay file, run with the kit against its seller, fails the same rule; against an honest one it no longer does", async () => {
    const response = await internal[1].request('/internal/conformance/M100/replay', { headers: auth });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="replay-M100.json"');
    const file = (await response.json()) as ProductionReplayFile;
    const kept = Math.min(20, (await conformance(internal[0], 'M100')).samples);
    expect(kept).toBeGreaterThan(0);
    expect(file.exchanges.length).toBe(kept);
    expect(file.exchanges.every((e) => e.rule === RULE && e.reply !== null)).toBe(true);
    expect(file.exchanges.every((e) => !('terminal_id' in e.request))).toBe(true);
    const path = join(dir.path, `replay-M100-${backend}.json`);
    await writeFile(path, JSON.stringify(file));

    const again = await runInProcess(replayCommand, [path, '--seller-url', `${faulty.url}/seller`]);
    expect(again.code).toBe(1);
    expect(again.stdout.match(/: fails: /g)).toHaveLength(kept);
    expect(again.stdout).toContain(`${kept} of ${kept} still fail`);

    const fixed = await runInProcess(replayCommand, [path, '--seller-url', `${honest.url}/seller`, '--json']);
    expect(fixed.code).toBe(0);
    const verdicts = JSON.parse(fixed.stdout) as { fails: number; exchanges: { verdict: string }[] };
    expect(verdicts.fails).toBe(0);
    expect(verdicts.exchanges.every((e) => e.verdict === 'no-longer-fails')).toBe(true);
  });

  it("the honest member's replay file is empty, and the kit says there is nothing to replay", async () => {
    const file = (await (
      await internal[0].request('/internal/conformance/M200/replay', { headers: auth })
    ).json()) as ProductionReplayFile;
    expect(file).toMatchObject({ kind: 'production-replay', member: 'M200', exchanges: [] });
    const path = join(dir.path, `replay-M200-${backend}.json`);
    await writeFile(path, JSON.stringify(file));
    const run = await runInProcess(replayCommand, [path, '--seller-url', `${honest.url}/seller`]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('nothing to replay');
  });
});
