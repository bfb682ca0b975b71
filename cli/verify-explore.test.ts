import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../shared/testing/temporary-directory';
import type { StateMapFile } from '../verification/states/state-map';
import { startMockSeller, type RunningMockSeller } from '../mock-seller/index';
import { verifyCommand } from './verify-command';
import { runInProcess } from './testing/run-in-process';

// verify --explore, the command line over the exploration (verification/explore/run-exploration.test.ts tests the
// exploration itself): its table and verdict, a state map naming what the seller lacks, bad usage.

let mock: RunningMockSeller;
beforeAll(async () => {
  mock = await startMockSeller({ scenario: 'fixtures/scenarios/default.json' });
});
afterAll(async () => {
  await mock?.close();
});
afterEach(async () => {
  await fetch(`${mock.url}/__admin/reset`, { method: 'POST' });
});

const verify = (argv: string[]) => runInProcess(verifyCommand, argv);

describe('verify --explore', () => {
  it('explores a state map, printing the table and the verdict; exit 0 on the honest seller', async () => {
    const { code, ...out } = await verify([
      '--explore',
      '--seller-url',
      `${mock.url}/seller`,
      '--state-map',
      'fixtures/state-maps/mock-seller-explore.json',
      '--runs',
      '150',
      '--seed',
      '5',
    ]);
    expect(out.stderr).toContain('seed 5 (replay: --seed 5)');
    expect(out.stderr).toMatch(/explore: 150\/150 exchanges, 0 failing/);
    expect(out.stdout).toMatch(/item-inquiry\s+alternate\.original-part\s+\d+\s+0\s+100\.0%\s+ok/);
    expect(out.stdout).toContain('PASSED: 150 exchanges');
    expect(code).toBe(0);
  });

  it('says plainly which part of the state map the seller does not have (exit 2), before exploring', async () => {
    // The example map with a part the default scenario lacks, as a vendor's typo would name one.
    const map = JSON.parse(readFileSync('fixtures/state-maps/mock-seller.json', 'utf8')) as StateMapFile;
    map.states['part has equivalent'] = { ...map.states['part has equivalent'], part_number: '41-999' };
    const file = join(temporaryDirectory('verify-explore'), 'lacking.json');
    writeFileSync(file, JSON.stringify(map));
    const { code, ...out } = await verify([
      '--explore',
      '--seller-url',
      `${mock.url}/seller`,
      '--state-map',
      file,
      '--runs',
      '10',
    ]);
    expect(code).toBe(2);
    expect(out.stderr).toContain('names a part your system does not have');
    expect(out.stderr).toContain(
      `ACD 41-999 (named in ${file} /states/part has equivalent) — your system answered status 0, not found`,
    );
    expect(out.stdout).toBe('');
  });

  it('refuses bad usage with the flag named (exit 2)', async () => {
    for (const [args, message] of [
      [['--seller-url', 'http://127.0.0.1:1/seller'], '--state-map or --states-url is required'],
      [
        ['--seller-url', 'http://127.0.0.1:1/seller', '--state-map', 'x.json', '--runs', 'many'],
        "--runs must be a whole number, 1–10000000, got 'many'",
      ],
      [
        ['--seller-url', 'http://127.0.0.1:1/seller', '--state-map', 'x.json', '--min-score', '120%'],
        '--min-score must be 0–1 or a percentage',
      ],
      [
        ['--seller-url', 'http://127.0.0.1:1/seller', '--state-map', 'x.json', '--time-limit', 'soon'],
        '--time-limit must be a duration',
      ],
    ] as const) {
      const run = await verify(['--explore', ...args]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(message);
    }
  });
});
