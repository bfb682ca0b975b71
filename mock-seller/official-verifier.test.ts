import { readFileSync } from 'node:fs';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockSeller, type RunningMockSeller } from './index';
import { listen } from '../shared/http/listen';
import { runOfficialVerifier } from '../verification/testing/official-pact-verifier';
import { exactly } from '../verification/verify/pact-cli';
import { PACT_FILE } from '../contracts/pact/pact-names';
import { readPact } from '../contracts/pact/pact-file';

// The pact as a vendor meets it: verified by the official Rust `pact verifier`, not our kit.
// States go to the mock seller's /__admin/provider-state; the verifier merges the flat maps
// the callbacks return and injects them, as pact-jvm and pact-net do.

const DESCRIPTIONS = readPact(PACT_FILE).interactions.map((i) => i.description);

let mock: RunningMockSeller;
beforeAll(async () => {
  mock = await startMockSeller();
});
afterAll(async () => {
  await mock?.close();
});

const stateUrl = () => `${mock.url}/__admin/provider-state`;

describe('the official pact verifier against the mock seller', () => {
  it('passes every interaction, states set up without teardown', async () => {
    const run = await runOfficialVerifier(PACT_FILE, mock.url, ['--state-change-url', stateUrl()]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    for (const description of DESCRIPTIONS) expect(run.stdout).toContain(`  ${description} (`);
    expect(run.stdout).not.toMatch(/FAILED|pact failures/);
  });

  it('passes every interaction with teardown calls between them', async () => {
    const run = await runOfficialVerifier(PACT_FILE, mock.url, [
      '--state-change-url',
      stateUrl(),
      '--state-change-teardown',
    ]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
  });

  it('passes each interaction run on its own, whatever ran before it', async () => {
    // Reverse order: every setup must hold after the states of later interactions.
    for (const description of [...DESCRIPTIONS].reverse()) {
      const run = await runOfficialVerifier(PACT_FILE, mock.url, [
        '--state-change-url',
        stateUrl(),
        '--filter-description',
        exactly(description),
      ]);
      expect(run.code, `${description}\n${run.stdout}`).toBe(0);
      expect(run.stdout).toContain(`  ${description} (`);
      expect(run.stdout.match(/ms verification\)/g)).toHaveLength(1);
    }
  });

  it("injects a vendor's own values that its state callback returns", async () => {
    // A vendor's callback: it answers each state with values from its own catalogue (the
    // state map fixture) after setting them up — here through the mock's own callback.
    const map = JSON.parse(readFileSync('fixtures/state-maps/mock-seller.json', 'utf8')) as {
      defaults: Record<string, unknown>;
      states: Record<string, Record<string, unknown>>;
    };
    const vendor = new Hono().post('/states', async (c) => {
      const { state, params, action } = (await c.req.json()) as {
        state: string;
        params: Record<string, unknown>;
        action: string;
      };
      const known = Object.keys(params);
      const own = Object.fromEntries(
        Object.entries({ ...map.defaults, ...map.states[state] }).filter(([k]) => known.includes(k)),
      );
      const answer = await fetch(stateUrl(), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ state, params: { ...params, ...own }, action }),
      });
      return c.json((await answer.json()) as object);
    });
    const server = await listen(vendor.fetch);
    try {
      await fetch(`${mock.url}/__admin/journal`, { method: 'DELETE' });
      const run = await runOfficialVerifier(PACT_FILE, mock.url, ['--state-change-url', `${server.url}/states`]);
      expect(run.code, run.stdout).toBe(0);
      const journal = (await (await fetch(`${mock.url}/__admin/journal?service=item_inquiry`)).json()) as {
        entries: { request: { items: { part_number: string }[] } }[];
      };
      const asked = journal.entries.flatMap((e) => e.request.items.map((i) => i.part_number));
      expect(asked).toEqual(expect.arrayContaining(['22433', '917-030', 'K060882', 'BKR5E', 'VENDOR-NO-SUCH-PART']));
      expect(asked).not.toContain('49100');
    } finally {
      await server.close();
    }
  });
});
