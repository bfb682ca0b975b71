import { describe, expect, it } from 'vitest';
import { compareOpenApiDocuments } from './openapi-compat';
import type { CompatFinding } from './compat-finding';

/** A one-operation document: POST /parts with this request and this reply schema, and these components. */
function documentWith(request: unknown, reply: unknown, schemas: Record<string, unknown> = {}) {
  return {
    openapi: '3.1.0',
    info: { title: 't', version: '1' },
    paths: {
      '/parts': {
        post: {
          requestBody: { required: true, content: { 'application/json': { schema: request } } },
          responses: { '200': { description: 'ok', content: { 'application/json': { schema: reply } } } },
        },
      },
    },
    components: { schemas },
  };
}

const brief = (f: CompatFinding) => [f.class, f.policy, f.pointer];
const REPLY = '/paths/~1parts/post/responses/200/content/application~1json/schema';
const REQUEST = '/paths/~1parts/post/requestBody/content/application~1json/schema';

// A part and its alternates, each a part: a schema that refers to itself.
const part = (maxLength: number, name = 'Part') => ({
  type: 'object',
  required: ['number'],
  properties: {
    number: { type: 'string', maxLength },
    alternates: { type: 'array', items: { $ref: `#/components/schemas/${name}` } },
  },
});

describe('comparing schemas', () => {
  it('ends on a recursive schema, finds nothing against itself, and finds a change once', () => {
    const base = documentWith(
      { $ref: '#/components/schemas/Part' },
      { $ref: '#/components/schemas/Part' },
      { Part: part(20) },
    );
    expect(compareOpenApiDocuments(base, structuredClone(base))).toEqual([]);
    const head = documentWith(
      { $ref: '#/components/schemas/Part' },
      { $ref: '#/components/schemas/Part' },
      { Part: part(40) },
    );
    expect(compareOpenApiDocuments(base, head).map(brief)).toEqual([
      ['safe', 'request-range-loosened', '/components/schemas/Part/properties/number/maxLength'],
      ['breaking', 'reply-range-widened', '/components/schemas/Part/properties/number/maxLength'],
    ]);
  });

  it('finds nothing between a recursive schema and the same unrolled one level under another name', () => {
    const base = documentWith({ type: 'string' }, { $ref: '#/components/schemas/Part' }, { Part: part(20) });
    const unrolled = {
      ...part(20),
      properties: { ...part(20).properties, alternates: { type: 'array', items: part(20, 'Item') } },
    };
    const head = documentWith({ type: 'string' }, unrolled, { Item: part(20, 'Item') });
    expect(compareOpenApiDocuments(base, head)).toEqual([]);
  });

  it('treats identical pattern strings as equal wherever they stand, and a one-character change as a change', () => {
    const pattern = '^[^\\u0000\\uD800-\\uDFFF]*$';
    const base = documentWith(
      { $ref: '#/components/schemas/Id' },
      { type: 'string', pattern },
      { Id: { type: 'string', pattern } },
    );
    const head = documentWith(
      { type: 'string', pattern },
      { $ref: '#/components/schemas/Id' },
      { Id: { type: 'string', pattern } },
    );
    expect(compareOpenApiDocuments(base, head)).toEqual([]);
    const changed = documentWith({ type: 'string', pattern: pattern.replace('*', '+') }, { type: 'string', pattern });
    expect(compareOpenApiDocuments(base, changed).map(brief)).toEqual([
      ['breaking', 'request-pattern-changed', `${REQUEST}/pattern`],
    ]);
  });

  it('reads an allOf of parts as the one schema they make', () => {
    const whole = {
      type: 'object',
      required: ['a', 'b'],
      properties: { a: { type: 'string' }, b: { type: 'integer' } },
    };
    const parts = {
      allOf: [
        { $ref: '#/components/schemas/A' },
        { type: 'object', required: ['b'], properties: { b: { type: 'integer' } } },
      ],
    };
    const A = { type: 'object', required: ['a'], properties: { a: { type: 'string' } } };
    expect(compareOpenApiDocuments(documentWith(whole, whole), documentWith(parts, parts, { A }))).toEqual([]);
    const loosened = { ...A, required: [] };
    expect(
      compareOpenApiDocuments(documentWith(whole, whole), documentWith(parts, parts, { A: loosened })).map(brief),
    ).toEqual([
      ['safe', 'request-field-made-optional', '/components/schemas/A/properties/a'],
      ['breaking', 'reply-field-made-optional', '/components/schemas/A/properties/a'],
    ]);
  });

  it('compares a union branch by branch: reordered is nothing, added widens, changed is compared inside', () => {
    const card = {
      type: 'object',
      title: 'card',
      required: ['number'],
      properties: { number: { type: 'string', maxLength: 19 } },
    };
    const account = { type: 'object', title: 'account', required: ['iban'], properties: { iban: { type: 'string' } } };
    const cash = { type: 'object', title: 'cash', properties: { currency: { type: 'string' } } };
    const base = documentWith({ anyOf: [card, account] }, { oneOf: [card, account] });
    expect(compareOpenApiDocuments(base, documentWith({ anyOf: [account, card] }, { oneOf: [account, card] }))).toEqual(
      [],
    );
    expect(
      compareOpenApiDocuments(
        base,
        documentWith({ anyOf: [account, cash, card] }, { oneOf: [cash, card, account] }),
      ).map(brief),
    ).toEqual([
      ['safe', 'request-union-widened', `${REQUEST}/anyOf/1`],
      ['breaking', 'reply-union-widened', `${REPLY}/oneOf/0`],
    ]);
    const shorter = { ...card, properties: { number: { type: 'string', maxLength: 16 } } };
    expect(
      compareOpenApiDocuments(base, documentWith({ anyOf: [account, shorter] }, { oneOf: [shorter, account] })).map(
        brief,
      ),
    ).toEqual([
      ['breaking', 'request-range-narrowed', `${REQUEST}/anyOf/1/properties/number/maxLength`],
      ['safe', 'reply-range-narrowed', `${REPLY}/oneOf/0/properties/number/maxLength`],
    ]);
  });

  it('reads an anyOf of consts as the enum it is, either way round', () => {
    const asEnum = { type: 'string', enum: ['RS256', 'ES256'] };
    const asUnion = {
      anyOf: [
        { const: 'ES256', type: 'string' },
        { const: 'RS256', type: 'string' },
      ],
    };
    expect(compareOpenApiDocuments(documentWith(asEnum, asEnum), documentWith(asUnion, asUnion))).toEqual([]);
    const wider = { anyOf: [...asUnion.anyOf, { const: 'EdDSA', type: 'string' }] };
    expect(compareOpenApiDocuments(documentWith(asEnum, asEnum), documentWith(wider, wider)).map(brief)).toEqual([
      ['safe', 'request-enum-widened', `${REQUEST}/anyOf`],
      ['breaking', 'reply-enum-widened', `${REPLY}/anyOf`],
    ]);
  });

  it('refuses what is not an OpenAPI document, naming the side', () => {
    expect(() => compareOpenApiDocuments({ consumer: { name: 'x' } }, documentWith({}, {}))).toThrow(
      /base is not an OpenAPI document/,
    );
    expect(() => compareOpenApiDocuments(documentWith({}, {}), 'nope')).toThrow(/head is not an OpenAPI document/);
  });
});
