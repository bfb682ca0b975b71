import { describe, it, expect } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { renderJsonSchemas } from './json-schema-documents';
import { ALL_PAYLOADS, loadFixture } from './payload-examples';
import { renderStateMapJsonSchema, STATE_MAP_SCHEMA_FILE } from '../verification/states/state-map';

const dir = fileURLToPath(new URL('json-schema/', import.meta.url));
// The contract's documents, and the verification kit's state map (its schema is the kit's, built from the catalogue).
const rendered = new Map([...renderJsonSchemas(), [STATE_MAP_SCHEMA_FILE, renderStateMapJsonSchema()]]);

describe('generated JSON Schema documents', () => {
  it('the committed files are up to date (run `npm run schemas` if this fails)', () => {
    const committed = readdirSync(dir)
      .filter((n) => n.endsWith('.schema.json'))
      .sort();
    expect(committed).toEqual([...rendered.keys()].sort());
    for (const [name, text] of rendered) expect(readFileSync(`${dir}${name}`, 'utf8'), name).toBe(text);
  });

  it('there is one per payload, named <operation>.<payload>.schema.json, one for mock-seller scenarios and one for state maps', () => {
    const expected = [
      ...ALL_PAYLOADS.map(({ operation, payload }) => `${operation}.${payload}.schema.json`),
      'mock-seller.scenario.schema.json',
      'state-map.schema.json',
    ];
    expect([...rendered.keys()].sort()).toEqual(expected.sort());
  });

  it('renders the same bytes every time, ending in a newline', () => {
    const again = new Map([...renderJsonSchemas(), [STATE_MAP_SCHEMA_FILE, renderStateMapJsonSchema()]]);
    for (const [name, text] of rendered) {
      expect(again.get(name)).toBe(text);
      expect(text.endsWith('}\n')).toBe(true);
    }
  });

  // What a vendor without TypeScript does: a stock 2020-12 validator with the standard formats.
  const ajv = new Ajv2020({ allErrors: true });
  addFormats(ajv);
  const compiled = new Map([...rendered].map(([name, text]) => [name, ajv.compile(JSON.parse(text))]));

  it.each(ALL_PAYLOADS)('a stock validator accepts the $operation.$payload fixture', ({ operation, payload }) => {
    const validate = compiled.get(`${operation}.${payload}.schema.json`)!;
    expect(validate(loadFixture(operation, payload as never)), JSON.stringify(validate.errors)).toBe(true);
  });

  it('a stock validator accepts the default scenario, which names this schema, and rejects a misspelt field', () => {
    const validate = compiled.get('mock-seller.scenario.schema.json')!;
    const scenario = JSON.parse(
      readFileSync(fileURLToPath(new URL('../fixtures/scenarios/default.json', import.meta.url)), 'utf8'),
    );
    expect(scenario.$schema).toBe('../../contracts/json-schema/mock-seller.scenario.schema.json');
    expect(validate(scenario), JSON.stringify(validate.errors)).toBe(true);
    scenario.parts[0].part_numbr = scenario.parts[0].part_number;
    expect(validate(scenario)).toBe(false);
  });

  it('a stock validator still rejects the targeted mistakes', () => {
    const buyer = loadFixture('item-inquiry', 'buyer-request');
    buyer.items[0].part_numbr = 'x';
    expect(compiled.get('item-inquiry.buyer-request.schema.json')!(buyer)).toBe(false);

    const reply = loadFixture('item-inquiry', 'seller-reply');
    reply.items[0].locations[0].route_times[0].cutoff_time = '2026-03-02T14:30:00';
    expect(compiled.get('item-inquiry.seller-reply.schema.json')!(reply)).toBe(false);

    const order = loadFixture('place-order', 'buyer-request');
    order.ship_to.country_code = 'usa';
    expect(compiled.get('place-order.buyer-request.schema.json')!(order)).toBe(false);

    const statement = loadFixture('statement', 'buyer-request');
    statement.from_statement_date = '2026-02-30';
    expect(compiled.get('statement.buyer-request.schema.json')!(statement)).toBe(false);

    const extra = loadFixture('item-inquiry', 'seller-reply');
    extra.seller_trace = 'allowed';
    expect(compiled.get('item-inquiry.seller-reply.schema.json')!(extra)).toBe(true);
  });
});
