import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogTestApp, type CatalogTestApp } from '../testing/catalog-test-app';

// Replies are checked against their schema or field by field; typed loosely to read them.
const json = (response: Response): Promise<any> => response.json() as Promise<any>;

let t: CatalogTestApp;
let headers: Record<string, string>;
beforeAll(async () => {
  t = await catalogTestApp();
  headers = { authorization: `Bearer ${await t.token()}` };
});
afterAll(() => t.close());

async function search(kind: 'products' | 'vehicles', query: string, extra = '') {
  const response = await t.app.request(`/search/${kind}?query=${encodeURIComponent(query)}${extra}`, { headers });
  const body = await json(response);
  expect(response.status, JSON.stringify(body)).toBe(200);
  return body;
}

const productKey = (p: { mfr_code: string; part_number: string }) => `${p.mfr_code} ${p.part_number}`;

describe('GET /search/products ranks the seed catalog', () => {
  // query → the product that must come first (misspellings and prefixes included)
  const topResults: [string, string][] = [
    ['ceramic brake pads', 'BOS BC905'],
    ['brak pads ceramic', 'BOS BC905'],
    ['brkae pads motorcraft', 'MOT BRF1478'],
    ['BC905', 'BOS BC905'],
    ['917030', 'DOR 917-030'],
    ['alternatr', 'BOS AL8792X'],
    ['tire presure sensor', 'DOR 74430'],
    ['serpentine gates', 'GAT K060882'],
    ['strut', 'MON 72113'],
    ['oil filter silverado', 'ACD PF48'],
  ];
  it.each(topResults)('"%s" puts %s first', async (query, expected) => {
    const body = await search('products', query);
    expect(body.results.length).toBeGreaterThan(0);
    expect(productKey(body.results[0])).toBe(expected);
  });

  it.each(['brake pad', 'brak pads', 'brkae pads'])(
    '"%s" finds both brake pad sets and nothing else',
    async (query) => {
      const body = await search('products', query);
      expect(body.results.map(productKey).sort()).toEqual(['BOS BC905', 'MOT BRF1478']);
      expect(body.total).toBe(2);
    },
  );

  it('corrects a misspelt word that is one transposition away ("sprak plug")', async () => {
    const body = await search('products', 'sprak plug');
    expect(body.total).toBeGreaterThanOrEqual(7);
    for (const result of body.results) expect(result.part_type.name).toBe('Spark Plug');
  });

  it('finds nothing for words the catalog does not know', async () => {
    const body = await search('products', 'flux capacitor');
    expect(body).toMatchObject({ total: 0, results: [] });
  });

  it('pages through the results with limit and offset, keeping the total', async () => {
    const all = await search('products', 'spark plug', '&limit=50');
    expect(all.total).toBe(all.results.length);
    const first = await search('products', 'spark plug', '&limit=3');
    const second = await search('products', 'spark plug', '&limit=3&offset=3');
    expect(first.results).toHaveLength(3);
    expect(first.total).toBe(all.total);
    expect([...first.results, ...second.results].map(productKey)).toEqual(all.results.slice(0, 6).map(productKey));
  });
});

describe('GET /search/vehicles', () => {
  it.each([
    ['civic 2015', '2015 Honda Civic'],
    ['2015 civc', '2015 Honda Civic'],
    ['honda civic 2016', '2016 Honda Civic'],
    ['f150 2016', '2016 Ford F-150'],
    ['toyta corola 2014', '2014 Toyota Corolla'],
    ['frieghtliner', '2017 Freightliner Cascadia'],
  ])('"%s" puts %s first', async (query, expected) => {
    const body = await search('vehicles', query);
    expect(body.results[0].base_vehicle.name).toBe(expected);
  });

  it('"civic 2015" finds the 2015 Civic with its engine and ids to query the catalog with', async () => {
    const body = await search('vehicles', 'civic 2015');
    expect(body.total).toBe(1);
    expect(body.results[0].base_vehicle).toMatchObject({
      id: 1002,
      make: { id: 1, name: 'Honda' },
      model: { id: 1, name: 'Civic' },
    });
    expect(body.results[0].engines).toEqual([{ id: 'HON-R18Z1', name: '1.8L L4 DOHC i-VTEC (R18Z1)' }]);
  });

  it('lists every year of a model, newest first', async () => {
    const body = await search('vehicles', 'honda civic');
    expect(body.results.map((r: { base_vehicle: { year_id: number } }) => r.base_vehicle.year_id)).toEqual([
      2018, 2017, 2016, 2015, 2014,
    ]);
  });
});

describe('search query validation', () => {
  it.each([
    ['', '/query'],
    ['?query=', '/query'],
    ['?query=brake&limit=0', '/limit'],
    ['?query=brake&limit=500', '/limit'],
    ['?query=brake&limit=ten', '/limit'],
    ['?query=brake&offset=-1', '/offset'],
    ['?query=brake&sort=price', '/sort'],
  ])('refuses "%s" naming %s', async (queryString, path) => {
    const response = await t.app.request(`/search/products${queryString}`, { headers });
    expect(response.status).toBe(422);
    const body = await json(response);
    expect(body.status_code).toBe(4422);
    expect(body.errors.map((e: { path: string }) => e.path)).toContain(path);
  });
});
