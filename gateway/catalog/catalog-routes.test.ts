import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogTestApp, type CatalogTestApp } from '../testing/catalog-test-app';

// Replies are checked against their schema or field by field; typed loosely to read them.
const json = (response: Response): Promise<any> => response.json() as Promise<any>;
import { compileValidator } from '../../contracts/index';
import { CATALOG_PAYLOADS } from '../../contracts/schemas/catalog';

let t: CatalogTestApp;
let auth: Record<string, string>;
beforeAll(async () => {
  t = await catalogTestApp();
  auth = { authorization: `Bearer ${await t.token()}`, 'content-type': 'application/json' };
});
afterAll(() => t.close());

const post = (path: string, body: unknown) =>
  t.app.request(path, { method: 'POST', headers: auth, body: typeof body === 'string' ? body : JSON.stringify(body) });

/** Asserts the reply is 200 and matches its contract schema, and returns it. */
async function ok(response: Response, operation: keyof typeof CATALOG_PAYLOADS) {
  const body = await json(response);
  expect(response.status, JSON.stringify(body)).toBe(200);
  const result = compileValidator(CATALOG_PAYLOADS[operation].reply)(body);
  expect(result.errors).toEqual([]);
  return body;
}

describe('catalog requests', () => {
  it('need a body: an empty one is a 4422 naming the body, not a parser message', async () => {
    const response = await post('/catalog/product/info', '');
    expect(response.status).toBe(422);
    expect(await json(response)).toEqual({
      status_code: 4422,
      message: 'the body is empty; this endpoint requires a JSON body',
      errors: [{ path: '', message: 'required' }],
    });
  });
});

describe('POST /catalog/vehicles narrows group → years → makes → models → engines', () => {
  it('lists vehicle group types when no field is given', async () => {
    const body = await ok(await post('/catalog/vehicles', {}), 'catalog-vehicles');
    expect(body.level).toBe('vehicle_group_types');
    expect(body.items).toContainEqual({ id: 1, name: 'Passenger Car & Light Truck' });
  });
  it('lists the years of a group, newest first', async () => {
    const body = await ok(await post('/catalog/vehicles', { vehicle_group_type_id: 1 }), 'catalog-vehicles');
    expect(body.level).toBe('years');
    expect(body.items[0]).toEqual({ id: 2018, name: '2018' });
    expect(body.items.map((y: { id: number }) => y.id)).toContain(2015);
  });
  it('lists the makes of a year', async () => {
    const body = await ok(
      await post('/catalog/vehicles', { vehicle_group_type_id: 1, year_id: 2015 }),
      'catalog-vehicles',
    );
    expect(body.level).toBe('makes');
    expect(body.items.map((m: { name: string }) => m.name)).toEqual(['Chevrolet', 'Ford', 'Honda', 'Toyota']);
  });
  it('lists the models of a make in a year', async () => {
    const body = await ok(
      await post('/catalog/vehicles', { vehicle_group_type_id: 1, year_id: 2015, make_id: 1 }),
      'catalog-vehicles',
    );
    expect(body.items.map((m: { name: string }) => m.name)).toEqual(['Accord', 'CR-V', 'Civic']);
  });
  it('gives the base vehicle and its engines for a model', async () => {
    const body = await ok(
      await post('/catalog/vehicles', { vehicle_group_type_id: 1, year_id: 2016, make_id: 1, model_id: 1 }),
      'catalog-vehicles',
    );
    expect(body.level).toBe('engines');
    expect(body.base_vehicle).toMatchObject({ id: 1003, name: '2016 Honda Civic', year_id: 2016 });
    expect(body.items.map((e: { id: string }) => e.id).sort()).toEqual(['HON-K20C2', 'HON-L15B7']);
  });
  it('names the missing parent field when a level is skipped', async () => {
    const response = await post('/catalog/vehicles', { vehicle_group_type_id: 1, make_id: 1 });
    expect(response.status).toBe(422);
    const body = await json(response);
    expect(body.status_code).toBe(4422);
    expect(body.errors).toEqual([{ path: '/year_id', message: 'is required when make_id is given' }]);
  });
  it('rejects unknown fields and wrong types, naming each', async () => {
    const response = await post('/catalog/vehicles', { year: 2015, make_id: 'Honda' });
    expect(response.status).toBe(422);
    const paths = (await json(response)).errors.map((e: { path: string }) => e.path).sort();
    expect(paths).toEqual(['/make_id', '/year']);
  });
  it('answers 404 for a year/make/model with no base vehicle', async () => {
    const response = await post('/catalog/vehicles', {
      vehicle_group_type_id: 1,
      year_id: 2018,
      make_id: 3,
      model_id: 6,
    });
    expect(response.status).toBe(404);
  });
});

describe('POST /catalog/categories', () => {
  it('returns the taxonomy with part types nested under categories by default', async () => {
    const body = await ok(await post('/catalog/categories', {}), 'catalog-categories');
    expect(body.taxonomy).toBe('standard');
    const disc = body.categories.find((c: { name: string }) => c.name === 'Disc Brake');
    expect(disc.parent_id).toBe(1);
    expect(disc.part_types.map((p: { name: string }) => p.name)).toContain('Disc Brake Pad Set');
  });
  it('limits to one top category and its sub-categories', async () => {
    const body = await ok(
      await post('/catalog/categories', { top_category_id: 1, response_items: 'categories' }),
      'catalog-categories',
    );
    expect(body.categories.map((c: { id: number }) => c.id).sort()).toEqual([1, 101, 102]);
    expect(body.categories[0].part_types).toBeUndefined();
  });
  it('lists only part types with a product fitting the vehicle', async () => {
    const body = await ok(
      await post('/catalog/categories', {
        response_items: 'part_types',
        base_vehicle_id: 1002,
        engine_key_id: 'HON-R18Z1',
      }),
      'catalog-categories',
    );
    const names = body.part_types.map((p: { name: string }) => p.name);
    expect(names).toContain('Disc Brake Pad Set');
    expect(names).toContain('Engine Oil Filter');
    expect(names).not.toContain('Shock Absorber'); // only the Silverado has one
  });
  it('refuses an engine of another vehicle and an unknown taxonomy, naming the field', async () => {
    const engine = await post('/catalog/categories', { base_vehicle_id: 1002, engine_key_id: 'FOR-50COY' });
    expect(engine.status).toBe(422);
    expect((await json(engine)).errors[0].path).toBe('/engine_key_id');
    const taxonomy = await post('/catalog/categories', { taxonomy: 'pies' });
    expect((await json(taxonomy)).errors[0].path).toBe('/taxonomy');
  });
});

describe('POST /catalog/products', () => {
  it('returns only products fitting the configuration, with that fitment', async () => {
    const body = await ok(
      await post('/catalog/products', {
        part_types: [{ id: 1684, name: 'Disc Brake Pad Set' }],
        configuration: { base_vehicle_id: 1002 },
      }),
      'catalog-products',
    );
    expect(body.products.map((p: { part_number: string }) => p.part_number)).toEqual(['BC905']);
    expect(body.products[0].fitment).toEqual([
      expect.objectContaining({ base_vehicle_id: 1002, vehicle: '2015 Honda Civic', position: 'Front' }),
    ]);
  });
  it('with show_all 1 returns every product of the part types, marking which fit', async () => {
    const body = await ok(
      await post('/catalog/products', {
        part_types: [{ id: 1684 }],
        configuration: { base_vehicle_id: 1002 },
        show_all: 1,
      }),
      'catalog-products',
    );
    const fits = Object.fromEntries(
      body.products.map((p: { part_number: string; fits: boolean }) => [p.part_number, p.fits]),
    );
    expect(fits).toEqual({ BC905: true, BRF1478: false });
  });
  it('names an unknown part type by its position', async () => {
    const response = await post('/catalog/products', { part_types: [{ id: 1684 }, { id: 999999 }] });
    expect(response.status).toBe(422);
    expect((await json(response)).errors[0].path).toBe('/part_types/1/id');
  });
  it('refuses show_all outside 0 and 1 and an empty part type list', async () => {
    const response = await post('/catalog/products', { part_types: [], show_all: 2 });
    const paths = (await json(response)).errors.map((e: { path: string }) => e.path).sort();
    expect(paths).toEqual(['/part_types', '/show_all']);
  });
});

describe('assets and product info', () => {
  it('gives the primary asset per SKU, or all with show_all, and lists unknown SKUs', async () => {
    const primary = await ok(
      await post('/catalog/products/assets', { catalog_skus: [10001, 424242] }),
      'catalog-product-assets',
    );
    expect(primary.products).toHaveLength(1);
    expect(primary.products[0].assets).toHaveLength(1);
    expect(primary.products[0].assets[0]).toMatchObject({ kind: 'image', primary: true });
    expect(primary.products[0].assets[0].url).toMatch(/^https:\/\//);
    expect(primary.missing_skus).toEqual([424242]);
    const all = await ok(
      await post('/catalog/products/assets', { catalog_skus: [10001], show_all: true }),
      'catalog-product-assets',
    );
    expect(all.products[0].assets.length).toBeGreaterThan(1);
  });
  it('gives a product with attributes, fitment and assets, and 404 for an unknown SKU', async () => {
    const body = await ok(await post('/catalog/product/info', { sku: 10001 }), 'catalog-product-info');
    expect(body.product).toMatchObject({ sku: 10001, mfr_code: 'BOS', part_number: 'BC905', list_price: 54.99 });
    expect(body.product.attributes).toContainEqual({ name: 'Friction material', value: 'Ceramic' });
    expect(body.product.fitment.map((f: { vehicle: string }) => f.vehicle)).toContain('2015 Honda Civic');
    expect((await post('/catalog/product/info', { sku: 424242 })).status).toBe(404);
  });
  it('gives the assets of applications found through product info', async () => {
    const info = await json(await post('/catalog/product/info', { sku: 10001 }));
    const civic = info.product.fitment.find((f: { base_vehicle_id: number }) => f.base_vehicle_id === 1002);
    const body = await ok(
      await post('/catalog/applications/assets', { application_ids: [civic.application_id, 999999] }),
      'catalog-application-assets',
    );
    expect(body.applications[0].sku).toBe(10001);
    expect(body.applications[0].assets.map((a: { kind: string }) => a.kind)).toContain('installation');
    expect(body.missing_application_ids).toEqual([999999]);
  });
  it('answers a body that is not JSON with 4422, not a crash', async () => {
    const response = await post('/catalog/product/info', '{sku:');
    expect(response.status).toBe(422);
    expect((await json(response)).status_code).toBe(4422);
  });
});

describe('values beyond what the store holds are a 4422 naming the field, never a 500', () => {
  // Catalog keys are int4 columns: 2147483647 is the last one a query can carry.
  const keyFields: [string, (n: number) => unknown, string][] = [
    ['/catalog/vehicles', (n) => ({ vehicle_group_type_id: n }), '/vehicle_group_type_id'],
    ['/catalog/vehicles', (n) => ({ vehicle_group_type_id: 1, year_id: 2015, make_id: n }), '/make_id'],
    ['/catalog/categories', (n) => ({ top_category_id: n }), '/top_category_id'],
    ['/catalog/categories', (n) => ({ base_vehicle_id: n }), '/base_vehicle_id'],
    ['/catalog/products', (n) => ({ part_types: [{ id: n }] }), '/part_types/0/id'],
    [
      '/catalog/products',
      (n) => ({ part_types: [{ id: 1 }], configuration: { base_vehicle_id: n } }),
      '/configuration/base_vehicle_id',
    ],
    ['/catalog/products/assets', (n) => ({ catalog_skus: [n] }), '/catalog_skus/0'],
    ['/catalog/product/info', (n) => ({ sku: n }), '/sku'],
    ['/catalog/applications/assets', (n) => ({ application_ids: [n] }), '/application_ids/0'],
  ];
  it.each(keyFields)('%s %s: 2^31, 2^53+1 and 1e20 refused; 2^31-1 answered', async (path, body, field) => {
    for (const n of [2 ** 31, 2 ** 53 + 1, 1e20]) {
      const response = await post(path, body(n));
      expect(response.status, `${path} ${n}`).toBe(422);
      const reply = await json(response);
      expect(reply.status_code).toBe(4422);
      expect(reply.errors.map((e: { path: string }) => e.path)).toContain(field);
    }
    expect((await post(path, body(2 ** 31 - 1))).status).toBeLessThan(500);
  });

  it('refuses 1e400 (Infinity once parsed) as a key', async () => {
    const response = await post('/catalog/product/info', '{"sku":1e400}');
    expect(response.status).toBe(422);
    expect(await json(response)).toMatchObject({
      status_code: 4422,
      errors: [{ path: '/sku', message: 'must be a finite integer' }],
    });
  });

  it('refuses a NUL or a lone surrogate in a string, and an overlong one', async () => {
    for (const bad of ['std\u0000', 'std\ud800', 'x'.repeat(101)]) {
      const response = await post('/catalog/categories', { taxonomy: bad });
      expect(response.status).toBe(422);
      expect((await json(response)).errors.map((e: { path: string }) => e.path)).toEqual(['/taxonomy']);
    }
    const engine = await post(
      '/catalog/products',
      `{"part_types":[{"id":1}],"configuration":{"base_vehicle_id":1003,"engine_key_id":"K\\ud800"}}`,
    );
    expect(engine.status).toBe(422);
    expect((await json(engine)).errors.map((e: { path: string }) => e.path)).toEqual(['/configuration/engine_key_id']);
  });

  it('refuses a NUL, a lone surrogate or an out-of-range offset in a search query string', async () => {
    for (const query of ['query=brake%00pad', 'query=brake&offset=9999999999', 'query=brake&limit=51']) {
      const response = await t.app.request(`/search/products?${query}`, { headers: auth });
      expect(response.status, query).toBe(422);
      expect((await json(response)).status_code).toBe(4422);
    }
  });
});

describe('authentication', () => {
  it('refuses catalog and search requests without a buyer token', async () => {
    expect((await t.app.request('/catalog/vehicles', { method: 'POST', body: '{}' })).status).toBe(401);
    expect((await t.app.request('/search/products?query=brake')).status).toBe(401);
  });
});
