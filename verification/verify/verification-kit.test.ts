import { describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../../shared/testing/temporary-directory';
import { startMockSeller } from '../../mock-seller/index';
import { PACT_FILE } from '../../contracts/pact/pact-names';
import { readPact } from '../../contracts/pact/pact-file';
import { renderJunit } from '../reports/report-as-junit';
import { progressLine, renderReport } from '../reports/report-as-text';
import { interactionReport, type InteractionRun } from '../reports/verification-report';
import { runVerification, type StateSetup } from './run-verification';
import { readStateMap } from '../states/state-map';
import { useMockSeller } from '../../mock-seller/testing/use-mock-seller';
import { startMisbehavingSeller } from '../testing/misbehaving-seller';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

// The vendor kit against our mock seller: an honest seller passes; each contract violation
// the mock can be told to commit fails the run with the right rule named in the report.

const mock = useMockSeller();

const viaCallback = (): StateSetup => ({ kind: 'url', url: `${mock.url}/__admin/provider-state` });
const verify = (states: StateSetup = viaCallback(), progress?: (line: string) => void, pactFile = PACT_FILE) =>
  runVerification({
    sellerUrl: `${mock.url}/seller`,
    pacts: { kind: 'file', files: [pactFile] },
    states,
    ...(progress
      ? {
          onInteraction: (run: InteractionRun, index: number, total: number) =>
            progress(progressLine(interactionReport(run), index, total)),
        }
      : {}),
  });

async function addFault(service: string, fault: Record<string, unknown>) {
  const response = await fetch(`${mock.url}/__admin/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ service, fault }),
  });
  expect(response.status).toBe(201);
}

describe('the verification kit against the mock seller', () => {
  it('passes an honest seller on every interaction, printing a progress line per exchange', async () => {
    const lines: string[] = [];
    const report = await verify(viaCallback(), (line) => lines.push(line));
    expect(
      report.interactions.filter((i) => i.pact !== 'passed' || i.rules !== 'passed' || i.problems.length > 0),
    ).toEqual([]);
    expect(report.ok).toBe(true);
    const count = readPact(PACT_FILE).interactions.length;
    expect(report.interactions).toHaveLength(count);
    expect(report.rules).toEqual([]);
    expect(lines).toHaveLength(count);
    expect(lines[0]).toMatch(new RegExp(`^\\[1/${count}\\] PASS .+ — pact: passed · reply rules: passed$`));
    expect(renderReport(report)).toContain(`PASSED: ${count} of ${count} interactions passed`);
  });

  it("injects a vendor's own values from a state map, without any state callback", async () => {
    // The map names other parts than the pact's examples, all in the default scenario.
    const own = await startMockSeller({ port: 0, host: '127.0.0.1' });
    try {
      const map = await readStateMap('fixtures/state-maps/mock-seller.json');
      const report = await runVerification({
        sellerUrl: `${own.url}/seller`,
        pacts: { kind: 'file', files: [PACT_FILE] },
        states: { kind: 'map', map },
      });
      expect(report.interactions.filter((i) => i.pact !== 'passed' || i.rules !== 'passed')).toEqual([]);
      expect(report.ok).toBe(true);
      // The seller saw the vendor values, not the pact's examples.
      const journal = (await (await fetch(`${own.url}/__admin/journal?service=item_inquiry`)).json()) as {
        entries: { request: { items: { part_number: string }[] } }[];
      };
      const asked = journal.entries.flatMap((e) => e.request.items.map((i) => i.part_number));
      expect(asked).toEqual(
        expect.arrayContaining(['22433', '917-030', 'K060882', 'BKR5E', '41-962', 'VENDOR-NO-SUCH-PART']),
      );
      expect(asked).not.toContain('49100');
    } finally {
      await own.close();
    }
  });

  /**
   * The committed pact cut down to one interaction, for runs about one interaction's reply or state (one
   * verifier process, not fifteen).
   */
  const onePact = (description: string) => {
    const pact = JSON.parse(readFileSync(PACT_FILE, 'utf8')) as { interactions: { description: string }[] };
    pact.interactions = pact.interactions.filter((i) => i.description === description);
    const file = join(temporaryDirectory('kit-pact'), 'one.json');
    writeFileSync(file, JSON.stringify(pact));
    return file;
  };
  const ALTERNATE = 'an item inquiry for a part with an alternate';

  // Each violation the mock can commit, the rule that must be named, and one breach to pin.
  const violations: {
    fault: Record<string, unknown>;
    service: string;
    rule: string;
    breach: Record<string, unknown>;
  }[] = [
    {
      service: 'item_inquiry',
      fault: { kind: 'drop-id' },
      rule: 'item.id-echo',
      breach: {
        interaction: 'an item inquiry for a part with an alternate',
        id: 'alternate-1',
        path: '/items',
        expected: 'alternate-1',
      },
    },
    {
      service: 'item_inquiry',
      fault: { kind: 'change-id' },
      rule: 'item.unknown-id',
      breach: { interaction: 'an item inquiry for an unknown part', id: 'unknown-1-changed', path: '/items/0/id' },
    },
    {
      service: 'item_inquiry',
      fault: { kind: 'add-unknown-id' },
      rule: 'item.unknown-id',
      breach: { interaction: 'an item inquiry for a superseded part', id: 'unrequested-id', path: '/items/2/id' },
    },
    {
      service: 'item_inquiry',
      fault: { kind: 'wrong-original-part' },
      rule: 'alternate.original-part',
      breach: {
        interaction: 'an item inquiry for a part with an alternate',
        id: 'alternate-1',
        path: '/items/1/original_part',
        expected: 'BRF1478',
        found: 'BRF1478-WRONG',
      },
    },
    {
      service: 'item_inquiry',
      fault: { kind: 'wrong-original-mfr' },
      rule: 'alternate.original-mfr',
      breach: {
        interaction: 'an item inquiry for a superseded part',
        id: 'superseded-1',
        path: '/items/1/original_mfr',
        expected: 'BOS',
        found: 'BOS-WRONG',
      },
    },
    {
      service: 'item_inquiry',
      fault: { kind: 'extra-location' },
      rule: 'location.not-forwarded',
      breach: {
        interaction: 'an item inquiry for a part with an equivalent',
        id: 'equivalent-1',
        path: '/items/0/locations/1/id',
        found: 'L-NOT-FORWARDED',
      },
    },
    {
      service: 'item_inquiry',
      fault: { kind: 'missing-field', field: '/items/0/locations' },
      rule: 'reply.schema',
      breach: { interaction: 'an item inquiry for a part with an alternate', path: '/items/0/locations' },
    },
    {
      service: 'place_order',
      fault: { kind: 'drop-id' },
      rule: 'order.id-echo',
      breach: { interaction: 'an order for a part in stock, received', id: 'order-received-1', path: '/items' },
    },
    {
      service: 'place_order',
      fault: { kind: 'add-unknown-id' },
      rule: 'order.unknown-id',
      breach: {
        interaction: 'an order for more than is in stock, backordered',
        id: 'unrequested-id',
        path: '/items/1/id',
      },
    },
  ];

  for (const { service, fault, rule, breach } of violations) {
    it(`fails a seller that commits ${fault.kind} on ${service}, naming ${rule}`, async () => {
      await addFault(service, fault);
      const report = await verify();
      expect(report.ok).toBe(false);
      const summary = report.rules.find((r) => r.rule === rule);
      expect(summary, `rules named: ${report.rules.map((r) => r.rule).join(', ')}`).toBeDefined();
      expect(summary!.breaches).toContainEqual(expect.objectContaining(breach));
      // Operations the fault does not touch still pass.
      const untouched = report.interactions.filter(
        (i) => !i.description.startsWith(service === 'item_inquiry' ? 'an item inquiry' : 'an order'),
      );
      expect(untouched.every((i) => i.rules === 'passed' && i.pact === 'passed')).toBe(true);
      // The same findings reach CI.
      expect(renderJunit(report)).toContain(rule);
      expect(renderReport(report)).toMatch(new RegExp(`FAILED: .*broken rules: .*${rule.replace('.', '\\.')}`));
    });
  }

  it('shows what Pact alone cannot: a wrong original_part passes Pact and fails the reply rules', async () => {
    await addFault('item_inquiry', { kind: 'wrong-original-part' });
    const report = await verify(viaCallback(), undefined, onePact(ALTERNATE));
    const alternate = report.interactions.find((i) => i.description === ALTERNATE)!;
    expect(alternate.pact).toBe('passed');
    expect(alternate.rules).toBe('failed');
  });

  it("quotes the vendor's own values in Pact's mismatches, not the contract's examples", async () => {
    const map = await readStateMap('fixtures/state-maps/mock-seller.json');
    await addFault('item_inquiry', { kind: 'drop-id' });
    const report = await runVerification({
      sellerUrl: `${mock.url}/seller`,
      pacts: { kind: 'file', files: [onePact(ALTERNATE)] },
      states: { kind: 'map', map },
    });
    const alternate = report.interactions.find((i) => i.description === ALTERNATE)!;
    expect(alternate.pact).toBe('failed');
    const text = alternate.pactMismatches.map((m) => m.message).join('\n');
    expect(text).toContain('"part_number":"K060882"');
    expect(text).toContain('"mfr_code":"GAT"');
    expect(text).not.toMatch(/BRF1478|"MOT"/);
  });

  it("fails a seller answering an HTML 500 with reply.not-json, the seller's page quoted as text, and no Pact mismatch about the kit's own 502", async () => {
    const html = await startMisbehavingSeller();
    try {
      const report = await runVerification({
        sellerUrl: `${html.url}/html-500`,
        pacts: { kind: 'file', files: [onePact(ALTERNATE)] },
        states: viaCallback(),
      });
      expect(report.ok).toBe(false);
      const [alternate] = report.interactions;
      expect(alternate.pact).toBe('failed');
      expect(alternate.rules).toBe('not-checked');
      expect(alternate.pactMismatches).toEqual([]);
      expect(alternate.problems).toEqual([
        expect.stringMatching(
          /^reply\.not-json: the seller answered HTTP 500 with content-type 'text\/html; charset=utf-8', not application\/json; first bytes: "<html><head><title>seller error<\/title>/,
        ),
      ]);
      expect(renderReport(report)).toContain('problem: reply.not-json: ');
      expect(renderReport(report)).not.toContain('\\u003c');
    } finally {
      await html.close();
    }
  });

  it('stops a reply past maxReplyBytes and reports reply.too-large with the limit', async () => {
    const report = await runVerification({
      sellerUrl: `${mock.url}/seller`,
      pacts: { kind: 'file', files: [onePact(ALTERNATE)] },
      states: viaCallback(),
      maxReplyBytes: 200,
    });
    expect(report.ok).toBe(false);
    expect(report.interactions[0].pactMismatches).toEqual([]);
    expect(report.interactions[0].problems[0]).toMatch(
      /^reply\.too-large: the seller's reply \(HTTP 200\) passed the limit of 200 bytes \(--max-reply-bytes\); the exchange was stopped after \d+ bytes$/,
    );
  });

  it('reports a state callback that fails, and the interaction with it', async () => {
    const first = readPact(PACT_FILE).interactions[0].description;
    const report = await verify(
      { kind: 'url', url: `${mock.url}/__admin/no-such-endpoint` },
      undefined,
      onePact(first),
    );
    expect(report.ok).toBe(false);
    expect(report.interactions[0].problems.join('\n')).toMatch(/state callback answered HTTP 404/);
  });
});
