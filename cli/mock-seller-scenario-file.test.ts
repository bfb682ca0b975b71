import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from './main';
import { runInProcess } from './testing/run-in-process';
import { temporaryDirectory } from '../shared/testing/temporary-directory';

// A scenario file as the vendor who wrote it meets its problems through `mock-seller
// --scenario`: every problem at once, each with its path; a syntax error with line and column.

const scenarioFile = (text: string): string => {
  const file = join(temporaryDirectory('scenario'), 'my-scenario.json');
  writeFileSync(file, text);
  return file;
};
const mockSeller = (file: string) => runInProcess(main, ['mock-seller', '--scenario', file, '--port', '0']);

describe('a mock-seller scenario file with problems', () => {
  it('names a syntax error by line and column', async () => {
    const file = scenarioFile('{\n  "name": "mine",\n  "members": [ { "id": "M1", } ]\n}\n');
    const run = await mockSeller(file);
    expect(run.stderr).toMatch(new RegExp(`${file} is not JSON: line 3, column 30: `));
    expect(run.code).toBe(2);
  });

  it('lists every problem with its path: a number given as a string, a field left out', async () => {
    const scenario = JSON.parse(readFileSync('fixtures/scenarios/default.json', 'utf8')) as {
      parts: { stock: Record<string, unknown>[]; mfr_code?: string }[];
    };
    scenario.parts[0].stock[0].quantity_available = '24';
    delete scenario.parts[1].mfr_code;
    scenario.parts[2].stock[0].list = 'cheap';
    const run = await mockSeller(scenarioFile(JSON.stringify(scenario, null, 2)));
    expect(run.code).toBe(2);
    for (const expected of [
      '  /parts/0/stock/0/quantity_available: must be a number\n',
      '  /parts/1',
      '  /parts/2/stock/0/list: must be a number\n',
    ])
      expect(run.stderr).toContain(expected);
  });
});
