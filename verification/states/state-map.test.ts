import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { packagePath } from '../../shared/package-root';
import { temporaryDirectory } from '../../shared/testing/temporary-directory';
import { checkStateMap, jsonPathOf, jsonSyntaxErrorOffset, readStateMap, StateMapError } from './state-map';

// The state map loader: what a vendor's mistakes look like (every one at once, where it is),
// and that it refuses exactly what the published JSON Schema refuses in the vendor's editor.

const problemsOf = (data: unknown): string => {
  try {
    checkStateMap(data);
  } catch (error) {
    expect(error).toBeInstanceOf(StateMapError);
    return (error as Error).message;
  }
  throw new Error('the state map was accepted');
};

const write = (text: string) => {
  const file = join(temporaryDirectory('state-map'), 'map.json');
  writeFileSync(file, text);
  return file;
};

describe('the state map loader', () => {
  it('takes the keys for editors and people: $schema and $comment', () => {
    const map = checkStateMap({
      $schema: '../../contracts/json-schema/state-map.schema.json',
      $comment: 'ours',
      states: { 'part exists': { part_number: 'A' } },
    });
    expect(map.states['part exists']).toEqual({ part_number: 'A' });
  });

  it('names every problem at once, each where it is', () => {
    const message = problemsOf({
      bogus: 1,
      defaults: { acount: 'A-1' },
      states: {
        'part exsts': {},
        'part exists': { part_no: 'X', mfr_code: '' },
        'order will fail': { quantity: true },
      },
      not_offered: ['nope'],
      explore: { parts: [{ mfr_code: 'GAT' }] },
    });
    expect(message).toMatch(/^state map: 8 problems:\n {2}- /);
    for (const expected of [
      "/bogus unknown field 'bogus'",
      "/defaults/acount: no state has a parameter 'acount'",
      '/states/part exsts: unknown state',
      "/states/part exists/part_no: 'part exists' has no parameter 'part_no'",
      'states["part exists"].mfr_code must be text (the contract\'s mfr_code is a string), not empty',
      'states["order will fail"].quantity must be a number (the contract\'s quantity_ordered is a number), not true',
      "/not_offered/0: unknown state 'nope'",
      '/explore/parts/0/part_number is required',
    ])
      expect(message).toContain(expected);
  });

  it('says one problem on one line', () => {
    expect(problemsOf({ states: { 'part exists': { part_no: 'X' } } })).toMatch(
      /^state map: \/states\/part exists\/part_no: 'part exists' has no parameter 'part_no' \(it has [^)]+\)$/,
    );
  });

  it("names every placeholder of the template still in the map, by its path, not a wall of Pact's mismatches", () => {
    const message = problemsOf({
      defaults: { member: '<your member id>', account: 'A-1' },
      states: {
        'part exists': { mfr_code: '<your manufacturer code>', part_number: '<your part number>' },
        'order will fail': { quantity: 1 },
      },
      explore: { order_locations: ['L1', '<your location id>'] },
    });
    expect(message).toContain('state map: 4 problems:');
    expect(message).toContain(`defaults.member is still the template's placeholder "<your member id>"`);
    expect(message).toContain(
      `states["part exists"].mfr_code is still the template's placeholder "<your manufacturer code>"`,
    );
    expect(message).toContain(`states["part exists"].part_number is still the template's placeholder`);
    expect(message).toContain(`explore.order_locations[1] is still the template's placeholder "<your location id>"`);
    expect(message).toMatch(/\n\(replace every "<your …>" value with one from your own catalogue\)$/);
    // Said once each: not again as the schema's "must NOT be valid".
    expect(message).not.toContain('must NOT');
  });

  it('writes paths as a reader of the file does', () => {
    expect(jsonPathOf(['states', 'part exists', 'mfr_code'])).toBe('states["part exists"].mfr_code');
    expect(jsonPathOf(['explore', 'parts', 0, 'related', 1, 'kind'])).toBe('explore.parts[0].related[1].kind');
  });

  it('says where a JSON syntax error is: line and column', async () => {
    const file = write('{\n  "states": {\n    "part exists": { "mfr_code": "GAT", }\n  }\n}\n');
    await expect(readStateMap(file)).rejects.toThrow(new RegExp(`^state map ${file} is not JSON: line 3, column 41: `));
    const cut = write('{\n  "states": {\n');
    await expect(readStateMap(cut)).rejects.toThrow(/is not JSON: line 3, column 1: /);
    const unquoted = write('{ states: {} }');
    await expect(readStateMap(unquoted)).rejects.toThrow(/is not JSON: line 1, column 3: /);
  });

  it('reads a file an editor saved with a byte order mark', async () => {
    const file = write('\uFEFF{ "states": { "part exists": { "part_number": "A" } } }');
    expect((await readStateMap(file)).states['part exists']).toEqual({ part_number: 'A' });
  });

  it('finds a syntax error exactly where JSON.parse does not parse, and none in valid JSON', () => {
    fc.assert(
      fc.property(fc.json(), (text) => {
        expect(jsonSyntaxErrorOffset(text)).toBeUndefined();
      }),
      { numRuns: 200 },
    );
    fc.assert(
      fc.property(fc.json(), fc.nat(), fc.constantFrom('', ',', '}', ']', ':', '"', 'x', '\n'), (text, at, cut) => {
        const broken = text.slice(0, at % (text.length + 1)) + cut;
        let parses = true;
        try {
          JSON.parse(broken);
        } catch {
          parses = false;
        }
        const offset = jsonSyntaxErrorOffset(broken);
        expect(offset === undefined).toBe(parses);
        if (offset !== undefined) expect(offset).toBeLessThanOrEqual(broken.length);
      }),
      { numRuns: 300 },
    );
  });
});

describe('the published JSON Schema (contracts/json-schema/state-map.schema.json)', () => {
  // What the vendor's editor reads, compiled by a stock validator.
  const ajv = new Ajv2020({ allErrors: true });
  addFormats(ajv);
  const schema = JSON.parse(readFileSync(packagePath('contracts/json-schema/state-map.schema.json'), 'utf8'));
  const editor = ajv.compile(schema);
  const loader = (data: unknown) => {
    try {
      checkStateMap(data);
      return true;
    } catch {
      return false;
    }
  };

  it('lists every provider state with its parameters, for completion', () => {
    const states = schema.properties.states.properties as Record<string, { properties: object; description: string }>;
    expect(Object.keys(states)).toContain('two parts exist and a third is unknown');
    expect(Object.keys(states['part has alternate'].properties)).toEqual([
      'member',
      'account',
      'mfr_code',
      'part_number',
      'related_mfr_code',
      'related_part_number',
      'location_id',
    ]);
    expect(states['part has alternate'].description).toContain('exactly one related part, an alternate');
    expect(schema.properties.not_offered.items.enum).toEqual(Object.keys(states));
  });

  const cases: [string, unknown][] = [
    ['the smallest map', { states: {} }],
    ['a state with values', { states: { 'order will fail': { part_number: 'NO', quantity: 1 } } }],
    ['defaults and $schema', { $schema: 'x.json', defaults: { member: 'M1' }, states: {} }],
    ['an unknown state', { states: { 'part exsts': {} } }],
    ['an unknown parameter', { states: { 'part exists': { part_no: 'X' } } }],
    ['an unknown default', { defaults: { acount: 'A' }, states: {} }],
    ['an empty value', { states: { 'part exists': { part_number: '' } } }],
    ['a value that is a list', { states: { 'part exists': { part_number: ['A'] } } }],
    ['a list per state', { states: { 'part exists': [{ part_number: 'A' }] } }],
    ['a placeholder left in', { states: { 'part exists': { part_number: '<your part number>' } } }],
    ['a placeholder in the defaults', { defaults: { member: '<your member id>' }, states: {} }],
    [
      'a placeholder in explore',
      { states: {}, explore: { unknown_parts: [{ mfr_code: 'A', part_number: '<your x>' }] } },
    ],
    ['an unknown state not offered', { states: {}, not_offered: ['nope'] }],
    ['a state not offered twice', { states: {}, not_offered: ['part exists', 'part exists'] }],
    ['no states', {}],
    ['an unknown top-level key', { states: {}, extra: 1 }],
    [
      'a bad explore date',
      {
        states: {},
        explore: { accounts: [{ member: 'M', account: 'A', invoice_dates: { from: '2026-02-30', to: '2026-03-01' } }] },
      },
    ],
  ];

  it.each(cases)('agrees with the loader: %s', (_name, data) => {
    expect(editor(data), JSON.stringify(editor.errors)).toBe(loader(data));
  });

  it('accepts every example state map', () => {
    for (const name of ['mock-seller', 'mock-seller-explore', 'spec-faithful-seller']) {
      const data = JSON.parse(readFileSync(packagePath(`fixtures/state-maps/${name}.json`), 'utf8'));
      expect(editor(data), `${name}: ${JSON.stringify(editor.errors)}`).toBe(true);
      expect(loader(data)).toBe(true);
    }
  });
});
