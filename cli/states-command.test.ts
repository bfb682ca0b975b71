import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../shared/testing/temporary-directory';
import { PACT_FILE } from '../contracts/pact/pact-names';
import { runOfficialVerifier } from '../verification/testing/official-pact-verifier';
import { startMockSeller } from '../mock-seller/index';
import type { Command } from './command-io';
import { runInProcess, startInProcess } from './testing/run-in-process';
import { rulesProxyCommand } from './rules-proxy-command';
import { statesCommand } from './states-command';
import { verifyCommand } from './verify-command';
import { PROVIDER_STATE_CATALOGUE, STATE_NAMES } from '../contracts/pact/provider-states';
import { checkStateMap } from '../verification/states/state-map';

// `states` as a vendor on another verifier uses it: the official Rust CLI's
// --state-change-url at `states`, its provider at the rules proxy, the proxy at the seller —
// with a vendor's own state map and no state server of their own.

/** Runs a long-lived command in-process until `stop()`; `url` resolves once it listens. */
function startCommand(command: Command, argv: string[]) {
  const run = startInProcess(command, argv);
  const url = run.printed(/listening on (http:\/\/\S+?),/);
  return { url, exit: run.exit, stop: run.stop, output: () => ({ stdout: run.stdout(), stderr: run.stderr() }) };
}

describe('federated-gateway states', () => {
  it('lets the official Rust verifier, through the rules proxy, pass the mock seller with a vendor state map', async () => {
    // The vendor's catalogue: the mock seller's default scenario, which the example map is for.
    const seller = await startMockSeller({ port: 0, host: '127.0.0.1' });
    const dir = temporaryDirectory('states');
    const pidFile = join(dir, 'states.pid');
    const states = startCommand(statesCommand, [
      '--state-map',
      'fixtures/state-maps/mock-seller.json',
      '--pid-file',
      pidFile,
    ]);
    const proxy = startCommand(rulesProxyCommand, [
      '--upstream',
      `${seller.url}/seller`,
      '--json',
      join(dir, 'rules.json'),
    ]);
    try {
      const statesUrl = await states.url;
      expect(readFileSync(pidFile, 'utf8')).toBe(`${process.pid}\n`);
      const run = await runOfficialVerifier(PACT_FILE, await proxy.url, [
        '--state-change-url',
        `${statesUrl}/pact-states`,
        '--state-change-teardown',
      ]);
      expect(run.code, run.stdout).toBe(0);
      // Every state change was answered from the map; a teardown with nothing.
      const { stderr } = states.output();
      expect(stderr).toContain(
        `states: setup 'part exists' → {"member":"M100","account":"A-1002","location_id":"L101","mfr_code":"GAT","part_number":"22433","second_location_id":"L150"}`,
      );
      expect(stderr).toContain(`states: teardown 'part exists' → {}`);
      // The seller saw the vendor's values, not the pact's examples, and kept every rule.
      const journal = (await (await fetch(`${seller.url}/__admin/journal?service=item_inquiry`)).json()) as {
        entries: { request: { items: { part_number: string }[] } }[];
      };
      const asked = journal.entries.flatMap((e) => e.request.items.map((i) => i.part_number));
      expect(asked).toEqual(
        expect.arrayContaining(['22433', '917-030', 'K060882', 'BKR5E', '41-962', 'VENDOR-NO-SUCH-PART']),
      );
      expect(asked).not.toContain('49100');
    } finally {
      states.stop('SIGTERM');
      proxy.stop('SIGTERM');
      await seller.close();
    }
    expect(await states.exit).toBe(0);
    expect(existsSync(pidFile)).toBe(false);
    expect(await proxy.exit).toBe(0);
    const rules = JSON.parse(readFileSync(join(dir, 'rules.json'), 'utf8')) as { exchanges: unknown[]; broken: number };
    expect(rules.broken).toBe(0);
    expect(rules.exchanges.length).toBeGreaterThanOrEqual(15);
  });

  it("answers a state change as every verifier expects it: POST {state, params, action}, the map's flat values; refuses what is not JSON", async () => {
    const states = startCommand(statesCommand, ['--state-map', 'fixtures/state-maps/mock-seller.json']);
    const url = await states.url;
    const post = (body: string, type = 'application/json') =>
      fetch(url, { method: 'POST', headers: { 'content-type': type }, body });
    const setup = await post(
      JSON.stringify({
        state: 'part has alternate',
        params: { mfr_code: 'WIX', part_number: '51515' },
        action: 'setup',
      }),
    );
    expect(setup.status).toBe(200);
    expect(await setup.json()).toEqual({
      member: 'M100',
      account: 'A-1002',
      location_id: 'L150',
      mfr_code: 'GAT',
      part_number: 'K060882',
      related_mfr_code: 'DAY',
      related_part_number: '5060882',
    });
    const text = await post('state=part+exists', 'text/plain');
    expect(text.status).toBe(415);
    states.stop();
    expect(await states.exit).toBe(0);
    expect(states.output().stderr).toContain('states: SIGINT, closing');
  });

  it('exits 2 naming the fault: no --state-map, an invalid map, a bad port; --help exits 0', async () => {
    const none = await runInProcess(statesCommand, []);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('states: --state-map is required (or --template to start one)');
    expect(none.stderr).toContain("Run 'federated-gateway states --help' for the options.");

    const file = join(temporaryDirectory('states'), 'map.json');
    writeFileSync(file, JSON.stringify({ states: { 'part exists': { part_numbr: 'X' } } }));
    const invalid = await runInProcess(statesCommand, ['--state-map', file]);
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toContain(`/states/part exists/part_numbr: 'part exists' has no parameter 'part_numbr'`);

    const port = await runInProcess(statesCommand, [
      '--state-map',
      'fixtures/state-maps/mock-seller.json',
      '--port',
      '70000',
    ]);
    expect(port.code).toBe(2);
    expect(port.stderr).toContain('--port must be a whole number from 0 to 65535');

    const help = await runInProcess(statesCommand, ['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: states --state-map <file>/);
  });

  it('--template prints a state map to start from: every state and parameter, each value a placeholder', async () => {
    const run = await runInProcess(statesCommand, ['--template']);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    const template = JSON.parse(run.stdout) as {
      $schema: string;
      $comment: string;
      defaults: Record<string, unknown>;
      states: Record<string, Record<string, unknown>>;
    };
    expect(template.$schema).toBe(
      './node_modules/@federated-gateway/toolkit/contracts/json-schema/state-map.schema.json',
    );
    expect(template.$comment).toContain('Replace every "<your …>" value');
    expect(template.defaults).toEqual({
      member: '<your member id>',
      account: "<your buyer's account id>",
      location_id: '<your location id>',
    });
    expect(Object.keys(template.states)).toEqual(STATE_NAMES);
    for (const state of STATE_NAMES) {
      const params = Object.keys(PROVIDER_STATE_CATALOGUE[state].params).filter((p) => !(p in template.defaults));
      expect(Object.keys(template.states[state]), state).toEqual(params);
      for (const [param, value] of Object.entries(template.states[state]))
        if (param === 'quantity') expect(typeof value).toBe('number');
        else expect(value, `${state} ${param}`).toMatch(/^<your [^<>]+>$/);
    }
    expect(template.states['part exists']).toMatchObject({
      mfr_code: '<your manufacturer code>',
      part_number: '<your part number>',
    });
    expect(template.states['order will be backordered'].quantity).toBeGreaterThan(1000);
    // Filled in, it is a state map the loader takes.
    const filled = JSON.parse(run.stdout.replace(/"<your [^"]*>"/g, '"X-1"')) as unknown;
    expect(checkStateMap(filled).states['part exists']).toMatchObject({ mfr_code: 'X-1' });

    const both = await runInProcess(statesCommand, ['--template', '--state-map', 'x.json']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--template or --state-map, not both');
  });

  it('refuses the template as it is, in states and in verify (exit 2), naming every placeholder left', async () => {
    const file = join(temporaryDirectory('states'), 'state-map.json');
    writeFileSync(file, (await runInProcess(statesCommand, ['--template'])).stdout);
    const template = JSON.parse(readFileSync(file, 'utf8')) as { states: Record<string, Record<string, unknown>> };
    const left =
      Object.values(template.states).flatMap((values) => Object.values(values).filter((v) => typeof v === 'string'))
        .length + 3;
    const seller = await startMockSeller();
    try {
      const runs = [
        await runInProcess(statesCommand, ['--state-map', file]),
        await runInProcess(verifyCommand, ['--seller-url', `${seller.url}/seller`, '--state-map', file]),
        await runInProcess(verifyCommand, ['--explore', '--seller-url', `${seller.url}/seller`, '--state-map', file]),
        await runInProcess(verifyCommand, ['--load', '--seller-url', `${seller.url}/seller`, '--state-map', file]),
      ];
      for (const run of runs) {
        expect(run.code, run.stderr).toBe(2);
        expect(run.stderr).toContain(`${left} problems:`);
        expect(run.stderr).toContain(
          `states["part exists"].mfr_code is still the template's placeholder "<your manufacturer code>"`,
        );
        expect(run.stderr).toContain(`defaults.member is still the template's placeholder "<your member id>"`);
        expect(run.stderr.match(/is still the template's placeholder/g)).toHaveLength(left);
        expect(run.stderr).not.toMatch(/mismatch/i);
      }
      // Nothing reached the seller.
      const journal = (await (await fetch(`${seller.url}/__admin/journal`)).json()) as { entries: unknown[] };
      expect(journal.entries).toEqual([]);
    } finally {
      await seller.close();
    }
  });
});
