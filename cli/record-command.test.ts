import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTemporaryDirectory } from '../shared/testing/temporary-directory';
import type { Scenario } from '../contracts/schemas/scenario';
import { startMockSeller, readDefaultScenario, type RunningMockSeller } from '../mock-seller/index';
import { checkScenario } from '../mock-seller/scenario-file';
import { startInProcess } from './testing/run-in-process';
import { recordCommand } from './record-command';
import { Hono } from 'hono';
import { listen } from '../shared/http/listen';

// Record the default-scenario mock seller through `record` with a generated set of requests,
// replay the written scenario in a second mock seller: the same requests, in the same order,
// get equal replies (order numbers aside; route times are today's on both sides).

const PUBLIC_URL = 'http://seller.test'; // both mocks write the same link_url origin

/** A small deterministic generator, so a failure can be reproduced from its seed. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  return {
    next,
    pick: <T>(list: readonly T[]) => list[Math.floor(next() * list.length)],
    some: <T>(list: readonly T[]) => list.filter(() => next() < 0.6),
  };
}

function generatedRequests(scenario: Scenario, seed: number): object[] {
  const r = random(seed);
  const members = { M100: ['L101', 'L102', 'L150'], M200: ['L201', 'L250'] } as const;
  const account = { M100: 'A-1001', M200: 'A-2001' } as const;
  const locationsOf = (member: 'M100' | 'M200', ids: readonly string[]) =>
    ids.map((id) => ({ id, member, account: account[member] }));
  const parts = scenario.parts.map((p) => ({ mfr_code: p.mfr_code, part_number: p.part_number }));
  const requests: object[] = [];
  const inquiry = (member: 'M100' | 'M200', locations: readonly string[], asked: typeof parts) =>
    requests.push({
      service: 'item_inquiry',
      locations: locationsOf(member, locations),
      items: asked.map((p, i) => ({ id: `i${requests.length}-${i}`, ...p })),
    });
  // Every part, at every location, first: what the orders below draw on is known.
  for (const member of ['M100', 'M200'] as const)
    for (let i = 0; i < parts.length; i += 6) inquiry(member, members[member], parts.slice(i, i + 6));
  for (let n = 0; n < 40; n++) {
    const member = r.pick(['M100', 'M200'] as const);
    if (r.next() < 0.5) {
      const asked = [
        ...r.some(parts).slice(0, 4),
        ...(r.next() < 0.3 ? [{ mfr_code: 'WIX', part_number: `NOPE-${n}` }] : []),
      ];
      const at = r.some(members[member]);
      inquiry(member, at.length > 0 ? at : members[member], asked.length > 0 ? asked : [parts[0]]);
    } else {
      const lines = Array.from({ length: 1 + Math.floor(r.next() * 3) }, (_, i) => ({
        id: `o${n}-${i}`,
        ...(r.next() < 0.1 ? { mfr_code: 'ZZZ', part_number: 'UNKNOWN' } : r.pick(parts)),
        location_id: r.next() < 0.05 ? 'L999' : r.pick(members[member]),
        quantity_ordered: r.pick([1, 2, 5, 40, 300]),
        account_id: account[member],
        member_id: member,
      }));
      requests.push({
        service: 'place_order',
        purchase_order_number: `PO-${n}`,
        order_type: r.pick([0, 1, 2]),
        ...(r.next() < 0.5 ? { comment: 'rush' } : {}),
        items: lines,
      });
    }
  }
  for (const acc of scenario.accounts) {
    const base = { member: acc.member, account: acc.id };
    requests.push({ service: 'invoice', ...base, from_invoice_date: '2026-10-01', to_invoice_date: '2026-11-30' });
    requests.push({ service: 'invoice', ...base });
    requests.push({ service: 'invoice', ...base, invoice_type: 'CR' });
    requests.push({ service: 'invoice', ...base, invoice_number: acc.invoices[0].invoice_number });
    requests.push({ service: 'invoice', ...base, part_number: acc.invoices[0].invoice_detail[0].part_number });
    requests.push({
      service: 'statement',
      ...base,
      from_statement_date: '2026-09-01',
      to_statement_date: '2026-12-31',
    });
    requests.push({
      service: 'statement',
      ...base,
      from_statement_date: '2026-01-01',
      to_statement_date: '2026-12-31',
      statement_type: 'monthly',
    });
  }
  requests.push({ service: 'invoice', member: 'M100', account: 'A-NOBODY' });
  requests.push({
    service: 'statement',
    member: 'M200',
    account: 'A-NOBODY',
    from_statement_date: '2026-01-01',
    to_statement_date: '2026-12-31',
  });
  return requests;
}

async function send(url: string, requests: object[]): Promise<unknown[]> {
  const replies: unknown[] = [];
  for (const body of requests) {
    const response = await fetch(url, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status, JSON.stringify(body)).toBe(200);
    replies.push(await response.json());
  }
  return replies;
}

/** Order numbers are the seller's clock and counter: everything else must match. */
const withoutClock = (reply: unknown) =>
  reply !== null && typeof reply === 'object' && 'order_number' in reply
    ? { ...reply, order_number: '<order number>' }
    : reply;

/** Runs `record` in-process with captured output and a stop switch. */
function recorder(argv: string[]) {
  const run = startInProcess(recordCommand, argv);
  const url = () => run.printed(/send seller requests to (http:\S+)/, 'stderr');
  return { exit: run.exit, url, output: run.output, stop: run.stop };
}

let upstream: RunningMockSeller;
const dir = useTemporaryDirectory('fgw-record');
beforeAll(async () => {
  upstream = await startMockSeller({ scenario: readDefaultScenario(), port: 0, publicUrl: PUBLIC_URL });
});
afterAll(async () => {
  await upstream.close();
});

describe('record, then replay', () => {
  it('the replayed scenario answers the recorded requests as the seller did', async () => {
    const out = join(dir.path, 'recorded.json');
    const requests = generatedRequests(readDefaultScenario(), Number(process.env.RECORD_TEST_SEED ?? 16));
    const run = recorder(['--upstream', `${upstream.url}/seller`, '--port', '0', '--out', out]);
    const recorded = await send(await run.url(), requests);
    run.stop('SIGTERM');
    // The generated set reaches every kind of answer the scenario must reproduce.
    const flat = JSON.stringify(recorded);
    for (const kind of [
      '"status_code":0',
      '"status_code":2,',
      '"status_code":3,',
      '"status_code":4,',
      'Received at',
      'Backordered: ',
      'Unknown part',
      'Unknown account',
      '"invoice_number":"INV-',
      '"statement_date":',
    ])
      expect(flat).toContain(kind);
    expect(await run.exit).toBe(0);
    expect(run.output()).toMatch(/SIGTERM: wrote the scenario learned so far to .*recorded\.json/);

    const text = await readFile(out, 'utf8');
    const scenario = checkScenario(JSON.parse(text));
    // Stable order: sorted members, locations, parts; a second recording diffs cleanly.
    expect(scenario.parts.map((p) => `${p.mfr_code} ${p.part_number}`)).toEqual(
      scenario.parts.map((p) => `${p.mfr_code} ${p.part_number}`).sort(),
    );
    expect(scenario.locations.map((l) => l.id)).toEqual(['L101', 'L102', 'L150', 'L201', 'L250']);
    expect(new Set(scenario.accounts.flatMap((a) => a.invoices.map((i) => i.invoice_number))).size).toBe(
      scenario.accounts.flatMap((a) => a.invoices).length,
    );

    const replay = await startMockSeller({ scenario: out, port: 0, publicUrl: PUBLIC_URL });
    try {
      const replayed = await send(`${replay.url}/seller`, requests);
      for (let i = 0; i < requests.length; i++)
        expect(withoutClock(replayed[i]), `request #${i}: ${JSON.stringify(requests[i])}`).toEqual(
          withoutClock(recorded[i]),
        );
    } finally {
      await replay.close();
    }
  });

  it('leaves out an exchange it cannot learn from, says so as it happens, and still writes the rest on Ctrl-C', async () => {
    // A vendor's seller with its own catalogue, as lenient as the one reported: it answers an
    // order whose forwarded body breaks the seller-request schema (extra top-level fields).
    const vendor = new Hono().post('/seller', async (c) => {
      const request = (await c.req.json()) as { service: string; items?: { id: string; part_number: string }[] };
      const location = {
        id: 'V1',
        type: 1,
        cost: 5,
        list: 9,
        pack_code: 'EA',
        pack_quantity: 1,
        quantity_available: 4,
      };
      if (request.service === 'item_inquiry')
        return c.json({
          status_code: 2000,
          items: request.items!.map((i) => ({ ...i, mfr_code: 'ACME', status_code: 1, locations: [location] })),
        });
      if (request.service === 'invoice') return c.json({ status: 'success', invoices: [] });
      return c.json({
        order_number: 'SO-1',
        status_code: 2000,
        items: request.items!.map((i) => ({ id: i.id, status_code: 1, quantity_ordered: 1 })),
      });
    });
    const seller = await listen(vendor.fetch, { port: 0 });
    const out = join(dir.path, 'vendor.json');
    const run = recorder(['--upstream', `${seller.url}/seller`, '--out', out]);
    try {
      const url = await run.url();
      const inquiry = (part_number: string) => ({
        service: 'item_inquiry',
        locations: [{ id: 'V1', member: 'M9', account: 'A9' }],
        items: [{ id: 'a', mfr_code: 'ACME', part_number }],
      });
      await send(url, [inquiry('P1'), inquiry('P2'), { service: 'invoice', member: 'M9', account: 'A9' }]);
      await send(url, [
        {
          service: 'place_order',
          purchase_order_number: 'PO-1',
          order_type: 1,
          member_id: 'M9',
          account_id: 'A9',
          items: [
            { id: 'o', mfr_code: 'ACME', part_number: 'P1', location_id: 'V1', quantity_ordered: 1, account_id: 'A9' },
          ],
        },
      ]);
      // Reported as it happens, before any stop.
      await expect
        .poll(() => run.output())
        .toMatch(/left out #4 place_order: the forwarded request breaks the place_order seller-request schema/);
      run.stop('SIGINT');
      expect(await run.exit).toBe(0);
    } finally {
      await seller.close();
    }
    const said = run.output();
    expect(said).toMatch(
      /SIGINT: wrote the scenario learned so far .* 4 exchange\(s\), 2 parts, 1 locations, 1 accounts/,
    );
    expect(said).toMatch(/left out 1 exchange\(s\) the recording could not learn from:\n\s+#4 place_order: /);
    const scenario = checkScenario(JSON.parse(await readFile(out, 'utf8')));
    expect(scenario.members.map((m) => m.id)).toEqual(['M9']);
    expect(scenario.parts.map((p) => p.part_number)).toEqual(['P1', 'P2']);
    expect(scenario.accounts.map((a) => a.id)).toEqual(['A9']);
  });

  it('stopping before anything was learned writes nothing and says so (exit 1)', async () => {
    const out = join(dir.path, 'nothing.json');
    const run = recorder(['--upstream', `${upstream.url}/seller`, '--out', out]);
    await run.url();
    run.stop();
    expect(await run.exit).toBe(1);
    expect(run.output()).toMatch(/nothing was learned.*not written/);
    await expect(readFile(out)).rejects.toThrow(/ENOENT/);
  });

  it('a port in use is a clear failure (exit 1)', async () => {
    const busy = new URL(upstream.url).port;
    const run = recorder(['--upstream', `${upstream.url}/seller`, '--port', busy, '--out', join(dir.path, 'x.json')]);
    expect(await run.exit).toBe(1);
    expect(run.output()).toMatch(new RegExp(`port ${busy} .*is in use`));
  });

  it('an unreachable upstream is a clear failure (exit 1)', async () => {
    const run = recorder(['--upstream', 'http://127.0.0.1:9/seller', '--out', join(dir.path, 'x.json')]);
    expect(await run.exit).toBe(1);
    expect(run.output()).toMatch(/cannot reach the upstream seller at http:\/\/127\.0\.0\.1:9\/seller: ECONNREFUSED/);
  });

  it.each([
    [[], /--upstream <seller url> is required/],
    [['--upstream', 'not a url', '--out', 'x.json'], /--upstream must be an http\(s\) URL, got 'not a url'/],
    [
      ['--upstream', 'http://x/seller', '--out', 'x.json', '--port', 'abc'],
      /--port must be a whole number from 0 to 65535, got 'abc'/,
    ],
    [['--bogus'], /unknown option '--bogus'/],
  ])('wrong usage %j exits 2 naming the option', async (argv, message) => {
    const run = recorder(argv as string[]);
    expect(await run.exit).toBe(2);
    expect(run.output()).toMatch(message);
  });

  it('--help prints the usage on stdout and exits 0', async () => {
    const run = recorder(['--help']);
    expect(await run.exit).toBe(0);
    expect(run.output()).toMatch(/^Usage: record --upstream/);
  });
});
