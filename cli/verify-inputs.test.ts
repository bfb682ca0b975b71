import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from './main';
import { runInProcess } from './testing/run-in-process';
import { startMockSeller, type RunningMockSeller } from '../mock-seller/index';
import { temporaryDirectory } from '../shared/testing/temporary-directory';

// `verify` as a vendor runs it, on what it checks before anything of the contract is sent: a
// state map's values of the wrong type, a part it names that the seller does not have; and
// what its summary says when no state source was given and most interactions failed for it.

const MAP = 'fixtures/state-maps/mock-seller.json';
const writeMap = (edit: (map: { states: Record<string, Record<string, unknown>> }) => void): string => {
  const map = JSON.parse(readFileSync(MAP, 'utf8')) as {
    $schema?: string;
    states: Record<string, Record<string, unknown>>;
  };
  delete map.$schema;
  edit(map);
  const file = join(temporaryDirectory('state-map'), 'my-states.json');
  writeFileSync(file, JSON.stringify(map, null, 2));
  return file;
};

let counting: Server;
let countingUrl: string;
let requests = 0;
beforeAll(async () => {
  counting = createServer((request, response) => {
    requests++;
    request.resume();
    response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((resolve) => counting.listen(0, '127.0.0.1', resolve));
  countingUrl = `http://127.0.0.1:${(counting.address() as AddressInfo).port}/seller`;
});
afterAll(async () => {
  await new Promise((resolve) => counting.close(resolve));
});

describe('a state map whose value is not of the type the contract carries', () => {
  it('is refused before anything is sent, naming the path, the type and the contract field', async () => {
    const file = writeMap((map) => (map.states['order can be received'].quantity = '99999'));
    const before = requests;
    const run = await runInProcess(main, ['verify', '--seller-url', countingUrl, '--state-map', file]);
    expect(run.stderr).toContain(
      `verify: ${file}: states["order can be received"].quantity must be a number (the contract's quantity_ordered is a number), not the string "99999"\n`,
    );
    expect(run.code).toBe(2);
    expect(requests).toBe(before);
  });
});

describe('verify against the mock seller', () => {
  let mock: RunningMockSeller;
  beforeAll(async () => {
    mock = await startMockSeller({ scenario: 'fixtures/scenarios/default.json' });
  });
  afterAll(async () => {
    await mock?.close();
  });

  it('asks the parts a state map names first: a typo is one line before the run, exit 2', async () => {
    const file = writeMap((map) => (map.states['part exists'].part_number = '22433X'));
    const run = await runInProcess(main, ['verify', '--seller-url', `${mock.url}/seller`, '--state-map', file]);
    expect(run.stderr).toContain(
      `verify: state map ${file} names a part your system does not have:\n` +
        `  - GAT 22433X (named in ${file} /states/part exists) — your system answered status 0, not found\n` +
        'Correct the state map (a part your system does not have belongs to "part is unknown" or "order will fail") and run again.\n',
    );
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
  });

  it('with no state source, says that one is what most failures lack, and how to write one', async () => {
    // The default scenario with every part number changed: the pact's example parts are not there.
    const scenario = JSON.parse(readFileSync('fixtures/scenarios/default.json', 'utf8')) as {
      parts: { part_number: string; related?: { part_number: string }[] }[];
    };
    for (const part of scenario.parts) {
      part.part_number = `${part.part_number}-V`;
      for (const related of part.related ?? []) related.part_number = `${related.part_number}-V`;
    }
    const own = await startMockSeller({ scenario });
    try {
      const run = await runInProcess(main, ['verify', '--seller-url', `${own.url}/seller`]);
      expect(run.code).toBe(1);
      const note = /\n\n(\d+) of (\d+) interactions failed and no state map or --states-url was given: .*\n\n/.exec(
        run.stdout,
      );
      expect(note).not.toBeNull();
      const [, failed, ran] = note!.map(Number);
      expect(failed * 2).toBeGreaterThan(ran);
      expect(run.stdout).toContain(
        `${failed} of ${ran} interactions failed and no state map or --states-url was given: the contract's example parts were asked for. ` +
          'Write one: npx federated-gateway states --template > my-states.json (docs/vendor/state-maps.md)\n\nFAILED: ',
      );
    } finally {
      await own.close();
    }
  });

  it('with no state source against a seller holding most examples, says nothing of it: few failed', async () => {
    const run = await runInProcess(main, ['verify', '--seller-url', `${mock.url}/seller`]);
    const [, failed, total] = /\nFAILED: (\d+) of (\d+) interactions failed/.exec(run.stdout)!.map(Number);
    expect(failed * 2).toBeLessThan(total);
    expect(run.stdout).not.toContain('no state map or --states-url was given');
  });
});
