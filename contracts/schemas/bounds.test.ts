import { describe, expect, it } from 'vitest';
import type { TSchema } from '@sinclair/typebox';
import { compileValidator, validators } from '../validator';
import { ALL_PAYLOADS, loadFixture } from '../payload-examples';
import { CATALOG_PAYLOADS } from './catalog';
import { Scenario } from './scenario';
import { MAX_REPLY_TEXT_LENGTH } from './common';

// The contract bounds every input to what the store and the forward can carry (design.md,
// docs/gateway/answers.md "What the contract refuses"): each bad value on each kind of field is an
// error at its own path. Checked two ways: every node of every request schema carries a
// bound, and every leaf of every example request is refused when made bad.

type Node = Record<string, unknown>;
type Check = (data: unknown) => { valid: boolean; errors: { path: string; message: string }[] };

/** Fully anchored, with no unbounded repetition: the pattern itself bounds the length. */
const boundedPattern = (pattern: string) => {
  const bare = pattern.replace(/\\./g, '');
  return bare.startsWith('^') && bare.endsWith('$') && !/[*+]|\{\d+,\}/.test(bare);
};

/** Paths (in the schema) of string and number nodes that carry no bound. */
function unbounded(schema: unknown, at = '#'): string[] {
  if (Array.isArray(schema)) return schema.flatMap((s, i) => unbounded(s, `${at}/${i}`));
  if (schema === null || typeof schema !== 'object') return [];
  const node = schema as Node;
  const found = Object.entries(node).flatMap(([key, value]) => unbounded(value, `${at}/${key}`));
  const fixed = 'enum' in node || 'const' in node;
  if (node.type === 'string' && !fixed && node.maxLength === undefined && node.format === undefined) {
    if (typeof node.pattern !== 'string' || !boundedPattern(node.pattern)) found.push(at);
  }
  if (
    (node.type === 'number' || node.type === 'integer') &&
    !fixed &&
    node.maximum === undefined &&
    node.exclusiveMaximum === undefined
  )
    found.push(at);
  return found;
}

// Every request the gateway reads, with an example that is valid as it stands.
const catalogExamples: Record<string, unknown> = {
  'catalog-vehicles': { vehicle_group_type_id: 1, year_id: 2015, make_id: 1, model_id: 1 },
  'catalog-categories': {
    response_items: 'all',
    taxonomy: 'standard',
    top_category_id: 1,
    base_vehicle_id: 1,
    engine_key_id: 'HON-K20C2',
  },
  'catalog-products': {
    part_types: [{ id: 1, name: 'Brake pad' }],
    configuration: { base_vehicle_id: 1, engine_key_id: 'HON-K20C2' },
    show_all: 1,
  },
  'catalog-product-assets': { catalog_skus: [10001], show_all: true },
  'catalog-product-info': { sku: 10001 },
  'catalog-application-assets': { application_ids: [1] },
  'search-products': { query: 'brake pad', limit: 10, offset: 0 },
  'catalog-token': { cart_id: '0b7e1c2a-3d4e-4f50-8a6b-7c8d9e0f1a2b' },
  cart: { cart_id: '0b7e1c2a-3d4e-4f50-8a6b-7c8d9e0f1a2b' },
  'cart-add-item': { sku: 10001, location_id: 'L150', quantity: 2 },
  'cart-change-item': { location_id: 'L150', quantity: 2 },
  'product-availability': { sku: 10001 },
};

const requests: { name: string; schema: TSchema; check: Check; example: unknown }[] = [
  ...ALL_PAYLOADS.filter(({ payload }) => payload.endsWith('request')).map(({ operation, payload }) => ({
    name: `${operation}.${payload}`,
    schema: (validators as unknown as Record<string, Record<string, { schema: TSchema }>>)[operation][payload].schema,
    check: (validators as unknown as Record<string, Record<string, Check>>)[operation][payload],
    example: loadFixture(operation, payload as never) as unknown,
  })),
  ...Object.entries(catalogExamples).map(([name, example]) => {
    const schema = (CATALOG_PAYLOADS as unknown as Record<string, { request: TSchema }>)[name].request;
    return { name, schema, check: compileValidator(schema) as Check, example };
  }),
];

/** Every leaf of `data` with its JSON pointer. */
function leaves(data: unknown, at = ''): { path: string; value: unknown }[] {
  if (Array.isArray(data)) return data.flatMap((d, i) => leaves(d, `${at}/${i}`));
  if (data !== null && typeof data === 'object')
    return Object.entries(data).flatMap(([k, v]) => leaves(v, `${at}/${k}`));
  return [{ path: at, value: data }];
}

/** A copy of `data` with the leaf at `path` replaced. */
function withLeaf(data: unknown, path: string, value: unknown): unknown {
  const copy = structuredClone(data) as Record<string, unknown>;
  const keys = path.split('/').slice(1);
  let parent = copy;
  for (const key of keys.slice(0, -1)) parent = parent[key] as Record<string, unknown>;
  parent[keys.at(-1)!] = value;
  return copy;
}

const errorPaths = (check: Check, data: unknown) => check(data).errors.map((e) => e.path);

describe('every request schema bounds every string and number', () => {
  it.each(requests.map((r) => [r.name, r.schema] as const))('%s', (_, schema) => {
    expect(unbounded(schema)).toEqual([]);
  });
  it('the mock seller scenario too', () => {
    expect(unbounded(Scenario)).toEqual([]);
  });
});

describe('every leaf of every request is refused when made bad, at its own path', () => {
  it.each(requests.map((r) => [r.name, r] as const))('%s', (_, { check, example }) => {
    expect(check(example).errors).toEqual([]);
    for (const { path, value } of leaves(example)) {
      if (typeof value === 'string') {
        for (const bad of [
          `${value}\u0000`,
          `\ud800${value}`,
          `${value}\udc00`,
          value + 'x'.repeat(1000),
          'x'.repeat(100_000),
        ])
          expect(
            errorPaths(check, withLeaf(example, path, bad)),
            `${path} = ${JSON.stringify(bad.slice(0, 40))}`,
          ).toEqual([path]);
      }
      if (typeof value === 'number') {
        for (const bad of [Infinity, -Infinity, 1e20, 2 ** 53 + 1])
          expect(errorPaths(check, withLeaf(example, path, bad)), `${path} = ${bad}`).toEqual([path]);
      }
    }
  });

  it('says why: NUL or surrogate, length, finite, maximum', () => {
    const check = validators['place-order']['buyer-request'];
    const order = loadFixture('place-order', 'buyer-request');
    const message = (path: string, value: unknown) => check(withLeaf(order, path, value)).errors[0].message;
    expect(message('/purchase_order_number', 'PO\u0000')).toBe(
      'must not contain NUL (U+0000) or an unpaired surrogate (U+D800–U+DFFF)',
    );
    expect(message('/purchase_order_number', 'P'.repeat(101))).toBe('must have at most 100 characters');
    expect(message('/items/0/quantity_ordered', Infinity)).toBe('must be a finite number');
    expect(message('/items/0/quantity_ordered', 100_001)).toBe('must be <= 100000');
  });

  it('counts characters as code points: 100 emoji are a 100-character id, 101 are not', () => {
    const check = validators['place-order']['buyer-request'];
    const order = loadFixture('place-order', 'buyer-request');
    expect(check.is(withLeaf(order, '/purchase_order_number', '\u{1F600}'.repeat(100)))).toBe(true);
    expect(errorPaths(check, withLeaf(order, '/purchase_order_number', '\u{1F600}'.repeat(101)))).toEqual([
      '/purchase_order_number',
    ]);
  });
});

describe('seller replies: finite numbers and a generous length, nothing stricter', () => {
  const replies = ALL_PAYLOADS.filter(({ payload }) => payload.endsWith('reply') && payload.startsWith('seller'));
  it.each(replies)('$operation.$payload refuses Infinity on every number, at its path', ({ operation, payload }) => {
    const check = (validators as unknown as Record<string, Record<string, Check>>)[operation][payload];
    const reply = loadFixture(operation, payload as never) as unknown;
    const numbers = leaves(reply).filter((l) => typeof l.value === 'number');
    expect(numbers.length).toBeGreaterThan(0);
    for (const { path } of numbers) expect(errorPaths(check, withLeaf(reply, path, Infinity)), path).toEqual([path]);
  });

  it('keeps a NUL or a surrogate a seller sends, and refuses a string over the reply limit', () => {
    const check = validators['item-inquiry']['seller-reply'];
    const reply = loadFixture('item-inquiry', 'seller-reply');
    expect(check(withLeaf(reply, '/items/0/part_description', 'odd\u0000text\ud800')).valid).toBe(true);
    expect(check(withLeaf(reply, '/items/0/part_description', 'x'.repeat(MAX_REPLY_TEXT_LENGTH))).valid).toBe(true);
    expect(
      errorPaths(check, withLeaf(reply, '/items/0/part_description', 'x'.repeat(MAX_REPLY_TEXT_LENGTH + 1))),
    ).toEqual(['/items/0/part_description']);
  });

  it('except a place-order reply, which is stored (jsonb): a NUL or lone surrogate there is refused at its path', () => {
    const check = validators['place-order']['seller-reply'];
    const reply = loadFixture('place-order', 'seller-reply');
    expect(errorPaths(check, withLeaf(reply, '/order_number', 'SO-1\u0000'))).toEqual(['/order_number']);
    expect(errorPaths(check, withLeaf(reply, '/items/0/id', 'line\ud800'))).toEqual(['/items/0/id']);
    expect(check(withLeaf(reply, '/order_number', 'SO-\u{1F600}')).valid).toBe(true);
  });
});
