import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startMockSeller, type RunningMockSeller } from '../../mock-seller/index';
import { checkSellerReply } from '../../contracts/reply-check';
import {
  invoiceRequestRules,
  itemInquiryRequestRules,
  placeOrderRequestRules,
  statementRequestRules,
} from '../../contracts/request-rules';
import { validators } from '../../contracts/validator';
import { readStateMap } from '../states/state-map';
import { catalogueOfScenario, catalogueOfStateMap, type Catalogue } from './catalogue';
import { exploreCase, type ExploreCase } from './generators';
import { generatedCases, runExploration } from './run-exploration';

// Exploration against our mock seller: honest, it keeps every rule over 1,000 generated
// exchanges; told to break a rule, the failure is found, shrunk to one item (one order line),
// named, and its curl command reproduces it. The command line over it: cli/verify-explore.test.ts.

let mock: RunningMockSeller;
let catalogue: Catalogue;
beforeAll(async () => {
  mock = await startMockSeller({ scenario: 'fixtures/scenarios/default.json' });
  catalogue = catalogueOfScenario(mock.seller.data.scenario, 'default scenario');
});
afterAll(async () => {
  await mock?.close();
});
afterEach(async () => {
  await fetch(`${mock.url}/__admin/reset`, { method: 'POST' });
});

const target = () => ({ sellerUrl: `${mock.url}/seller`, timeoutMs: 10_000 });

const REQUEST_RULES = {
  'item-inquiry': itemInquiryRequestRules,
  'place-order': placeOrderRequestRules,
  invoice: invoiceRequestRules,
  statement: statementRequestRules,
};

describe('generated requests', () => {
  it('are valid forwarded requests, and the same seed draws the same ones', () => {
    const arbitrary = exploreCase(catalogue);
    const cases = generatedCases(arbitrary, 1234, 300);
    for (const c of cases) {
      expect(validators[c.operation]['seller-request'](c.request).errors).toEqual([]);
      expect(REQUEST_RULES[c.operation](c.request as never)).toEqual([]);
    }
    expect(generatedCases(exploreCase(catalogue), 1234, 300)).toEqual(cases);
    expect(generatedCases(arbitrary, 1235, 300)).not.toEqual(cases);
    const operations = new Set(cases.map((c) => c.operation));
    expect([...operations].sort()).toEqual(['invoice', 'item-inquiry', 'place-order', 'statement']);
    const inquiries = cases.flatMap((c) => (c.operation === 'item-inquiry' ? [c.request] : []));
    // Shapes the pact's examples never show: many items, one part under two ids, odd ids.
    expect(inquiries.some((r) => r.items.length >= 10)).toBe(true);
    expect(
      inquiries.some((r) => new Set(r.items.map((i) => `${i.mfr_code} ${i.part_number}`)).size < r.items.length),
    ).toBe(true);
    expect(inquiries.some((r) => r.items.some((i) => !/^[\w-]+$/.test(i.id)))).toBe(true);
  });

  it('come from a state map: its states and its explore section', async () => {
    const map = await readStateMap('fixtures/state-maps/mock-seller-explore.json');
    const fromMap = catalogueOfStateMap(map, 'explore.json');
    expect(fromMap.parts.map((p) => `${p.mfr_code} ${p.part_number}`)).toEqual(
      expect.arrayContaining(['GAT 22433', 'DAY 5060882', 'WIX 51515', 'MOT FL400S']),
    );
    expect(fromMap.relatedParts.map((p) => p.part_number)).toEqual(
      expect.arrayContaining(['K060882', '51515', 'BRF1478']),
    );
    expect(fromMap.locations.map((l) => l.id).sort()).toEqual(['L101', 'L102', 'L150']);
    expect(fromMap.accounts.map((a) => a.account)).toContain('A-1002');
  });
});

describe('exploring the mock seller', () => {
  it('finds nothing wrong with the honest seller over 1,000 generated exchanges', async () => {
    const result = await runExploration({ target: target(), catalogue, runs: 1000, seed: 20261123, concurrency: 8 });
    expect(result.done).toBe(1000);
    expect(result.failures).toEqual([]);
    // Every operation and the rules on alternates and locations were put to the test.
    expect(Object.keys(result.tally).sort()).toEqual(['invoice', 'item-inquiry', 'place-order', 'statement']);
    expect(result.tally['item-inquiry']['alternate.original-part'].exercised).toBeGreaterThan(100);
    expect(result.tally['item-inquiry']['location.not-forwarded'].exercised).toBeGreaterThan(100);
    expect(result.tally.invoice['invoice.date-range'].exercised).toBeGreaterThan(0);
    expect(result.tally.statement['statement.date-range'].exercised).toBeGreaterThan(0);
  });

  // Each domain fault on a few percent of what it can spoil (seeded: the same items on every
  // replay, so shrinking and the curl command meet it again).
  const FAULTS: {
    name: string;
    service: string;
    fault: Record<string, unknown>;
    probability: number;
    operation: ExploreCase['operation'];
    rule: string;
  }[] = [
    {
      name: 'a wrong original_part on 3% of alternates',
      service: 'item_inquiry',
      fault: { kind: 'wrong-original-part' },
      probability: 0.03,
      operation: 'item-inquiry',
      rule: 'alternate.original-part',
    },
    {
      name: 'a wrong original_mfr on 3% of alternates',
      service: 'item_inquiry',
      fault: { kind: 'wrong-original-mfr' },
      probability: 0.03,
      operation: 'item-inquiry',
      rule: 'alternate.original-mfr',
    },
    {
      name: 'an item id dropped on 2% of items',
      service: 'item_inquiry',
      fault: { kind: 'drop-id' },
      probability: 0.02,
      operation: 'item-inquiry',
      rule: 'item.id-echo',
    },
    {
      name: 'an item id changed on 2% of items',
      service: 'item_inquiry',
      fault: { kind: 'change-id' },
      probability: 0.02,
      operation: 'item-inquiry',
      rule: 'item.unknown-id',
    },
    {
      name: 'a location not forwarded on 3% of items',
      service: 'item_inquiry',
      fault: { kind: 'extra-location' },
      probability: 0.03,
      operation: 'item-inquiry',
      rule: 'location.not-forwarded',
    },
    {
      name: 'an order line dropped on 3% of lines',
      service: 'place_order',
      fault: { kind: 'drop-id' },
      probability: 0.03,
      operation: 'place-order',
      rule: 'order.id-echo',
    },
  ];

  for (const f of FAULTS) {
    it(`finds ${f.name}, shrinks it to one or two ${f.operation === 'place-order' ? 'lines' : 'items'}, names ${f.rule}, and its curl reproduces it`, async () => {
      const added = await fetch(`${mock.url}/__admin/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ service: f.service, fault: f.fault, probability: f.probability, seed: 2026 }),
      });
      expect(added.status).toBe(201);
      const result = await runExploration({
        target: target(),
        catalogue,
        runs: 300,
        seed: 99,
        concurrency: 4,
        operations: [f.operation],
      });
      const failure = result.failures.find((x) => x.rule === f.rule);
      expect(failure, JSON.stringify(result.failures.map((x) => x.rule))).toBeDefined();
      expect(failure!.operation).toBe(f.operation);
      // Some exchanges broke it, not all: the fault strikes a few percent.
      expect(failure!.count).toBeLessThan(result.done);
      const shrunk = failure!.shrunk.request as { items: { id: string }[] };
      // Each item alone is tried once, and a fault that strikes a few percent of items at random
      // may pass over the lone item when it is re-sent: the smallest request that still broke the
      // rule may hold a second item beside the one the fault struck.
      expect(shrunk.items.length).toBeLessThanOrEqual(2);
      expect(failure!.finding.rule).toBe(f.rule);
      expect(failure!.finding.path).not.toBe('');
      // The journal says which exchange got which fault: the shrunk item's id is named.
      const journal = (await (await fetch(`${mock.url}/__admin/journal`)).json()) as {
        entries: { faults: string[] }[];
      };
      expect(
        journal.entries.some((e) =>
          e.faults.some((x) => shrunk.items.some((item) => x.startsWith(`${f.fault.kind};id=${item.id};scheduled=`))),
        ),
      ).toBe(true);
      // The printed command, run by a shell, gets a reply breaking the same rule (asynchronously:
      // the mock seller answers from this very process).
      const reply = JSON.parse((await promisify(execFile)('sh', ['-c', failure!.curl], { encoding: 'utf8' })).stdout);
      const check = checkSellerReply(f.operation, failure!.shrunk.request, reply);
      expect(check.violations.map((v) => v.rule)).toContain(f.rule);
    });
  }
});

describe('exploration results', () => {
  it('do not depend on the concurrency: the same failures, first runs and shrunk requests', async () => {
    const add = () =>
      fetch(`${mock.url}/__admin/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          service: 'item_inquiry',
          fault: { kind: 'extra-location' },
          probability: 0.02,
          seed: 5,
        }),
      });
    await add();
    const one = await runExploration({
      target: target(),
      catalogue,
      runs: 200,
      seed: 31,
      concurrency: 1,
      operations: ['item-inquiry'],
    });
    await fetch(`${mock.url}/__admin/reset`, { method: 'POST' });
    await add();
    const eight = await runExploration({
      target: target(),
      catalogue,
      runs: 200,
      seed: 31,
      concurrency: 8,
      operations: ['item-inquiry'],
    });
    expect(one.failures.length).toBeGreaterThan(0);
    const summary = (r: typeof one) =>
      r.failures.map((f) => ({ rule: f.rule, index: f.index, count: f.count, shrunk: f.shrunk, curl: f.curl }));
    expect(summary(eight)).toEqual(summary(one));
    expect(eight.tally).toEqual(one.tally);
  });
});
