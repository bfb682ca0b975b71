import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Type, type TSchema } from '@sinclair/typebox';
import { PAYLOADS } from '../../contracts/index';
import { compileFloatJson as compileFloatJsonByWalking } from '../float-json/float-json';
import { WALKING_WRITERS, type BuyerReplyOperation, type BuyerReplyWriters } from '../float-json/buyer-reply-json';
import { generateFloatJsonWriter as compileFloatJson } from './generated-reply-writer';
import { GENERATED_WRITERS } from './speedups';

// The generated buyer-reply writer against the plain one (gateway/float-json/): what a float
// field must look like, on both, then the generated one's bytes equal to the plain one's.

const buyerReplyJson = GENERATED_WRITERS;

/** The writers write UTF-8 bytes; most assertions read them back as text. */
const textOf = (writers: BuyerReplyWriters) =>
  Object.fromEntries(
    Object.entries(writers).map(([operation, write]) => [operation, (value: unknown) => write(value).toString('utf8')]),
  ) as Record<BuyerReplyOperation, (value: unknown) => string>;

const walkingBytes = (schema: TSchema) => {
  const write = compileFloatJsonByWalking(schema);
  return (value: unknown) => Buffer.from(write(value));
};

describe.each([
  { name: 'generated', writers: GENERATED_WRITERS, compile: compileFloatJson },
  { name: 'plain', writers: WALKING_WRITERS, compile: walkingBytes },
])('float JSON serializer ($name)', ({ writers, compile }) => {
  const replyText = textOf(writers);
  it('writes float fields of an item inquiry reply with a decimal point and leaves integers alone', () => {
    const text = replyText['item-inquiry']({
      status_code: 2000,
      items: [
        {
          id: '1',
          mfr_code: 'ACM',
          part_number: 'X1',
          status_code: 1,
          weight: 2,
          fee: 0,
          locations: [
            {
              id: 'L101',
              cost: 12,
              list: 19.99,
              core: 0,
              pack_code: 'EA',
              pack_quantity: 1,
              quantity_available: 7,
              sort_order: 1,
              type: 1,
              can_order: true,
            },
          ],
        },
      ],
    });
    expect(text).toContain('"status_code":2000,');
    expect(text).toContain('"weight":2.0');
    expect(text).toContain('"fee":0.0');
    expect(text).toContain('"cost":12.0');
    expect(text).toContain('"list":19.99');
    expect(text).toContain('"core":0.0');
    expect(text).toContain('"quantity_available":7.0');
    expect(text).toContain('"pack_quantity":1,');
    expect(text).toContain('"sort_order":1,');
    expect(text).toContain('"type":1,');
  });

  it('writes order quantities and document amounts as floats', () => {
    expect(
      replyText['place-order']({
        order_number: 'O1',
        status_code: 2000,
        items: [{ id: '1', status_code: 1, quantity_ordered: 3 }],
      }),
    ).toBe('{"order_number":"O1","status_code":2000,"items":[{"id":"1","status_code":1,"quantity_ordered":3.0}]}');
    const invoice = replyText.invoice({
      status: 'success',
      error_description: '',
      invoices: [
        {
          invoice_number: 'I1',
          item_count: 2,
          total_cost: -40,
          invoice_detail: [{ item_quantity: -1, list_price: 10, cost: 8.5, line_code: 'A', part_number: 'P' }],
        },
      ],
    });
    expect(invoice).toContain('"item_count":2.0,"total_cost":-40.0');
    expect(invoice).toContain('"item_quantity":-1.0,"list_price":10.0,"cost":8.5');
    expect(
      replyText.statement({
        status: 'success',
        statements: [
          { total_cost: 100, statement_detail: [{ invoice_date: '2026-01-01', original_amount: 5, paid_amount: 0 }] },
        ],
      }),
    ).toContain(
      '"total_cost":100.0,"statement_detail":[{"invoice_date":"2026-01-01","original_amount":5.0,"paid_amount":0.0}]',
    );
  });

  it('passes extra seller fields through untouched', () => {
    const text = replyText['item-inquiry']({ status_code: 2000, items: [], seller_note: { n: 3 }, skipped: undefined });
    expect(text).toBe('{"status_code":2000,"items":[],"seller_note":{"n":3}}');
  });

  it('keeps numbers JSON cannot write with a decimal point valid', () => {
    const write = compile(Type.Object({ a: Type.Number(), b: Type.Number(), c: Type.Number() }));
    const text = write({ a: 1e21, b: Number.NaN, c: -0 }).toString('utf8');
    expect(JSON.parse(text)).toEqual({ a: 1e21, b: null, c: 0 });
  });

  it('round-trips to the same value as JSON.stringify for any reply-shaped data', () => {
    const location = fc.record(
      {
        id: fc.string(),
        cost: fc.double({ noNaN: true, noDefaultInfinity: true }),
        list: fc.integer(),
        pack_quantity: fc.integer(),
        extra: fc.jsonValue(),
      },
      { requiredKeys: ['id'] },
    );
    const reply = fc.record({
      status_code: fc.integer(),
      items: fc.array(
        fc.record({
          id: fc.string(),
          weight: fc.option(fc.double({ noNaN: true, noDefaultInfinity: true }), { nil: undefined }),
          locations: fc.array(location),
        }),
      ),
    });
    fc.assert(
      fc.property(reply, (value) => {
        expect(JSON.parse(replyText['item-inquiry'](value))).toEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
  });
});

describe('float JSON fast writer', () => {
  const schema = Type.Object({
    n: Type.Number(),
    list: Type.Array(Type.Object({ q: Type.Number(), i: Type.Integer() })),
  });
  const bytes = compileFloatJson(schema);
  const fast = (value: unknown) => bytes(value).toString('utf8');
  const walking = compileFloatJsonByWalking(schema);

  it('writes exactly what the walking writer writes, and leaves the value unchanged', () => {
    fc.assert(
      fc.property(
        fc.record({
          n: fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.string()),
          list: fc.array(fc.record({ q: fc.oneof(fc.integer(), fc.double()), i: fc.integer(), note: fc.string() })),
          extra: fc.jsonValue(),
        }),
        (value) => {
          const before = JSON.stringify(value);
          expect(fast(value)).toBe(walking(value));
          expect(JSON.stringify(value)).toBe(before);
        },
      ),
    );
  });

  it('writes prices (two decimals or fewer) as the walking writer does, and the doubles beside them too', () => {
    // The fast path for prices must give V8's shortest digits exactly; the double one step
    // above a price is not a price and must take the long way.
    const nextUp = (x: number) => {
      const view = new DataView(new ArrayBuffer(8));
      view.setFloat64(0, x);
      view.setBigUint64(0, view.getBigUint64(0) + 1n);
      return view.getFloat64(0);
    };
    const cents = fc.oneof(
      fc.integer({ min: 1, max: 99_999 }),
      fc.integer({ min: 1, max: 2 ** 31 * 100 + 1_000 }),
      fc.constantFrom(1, 5, 10, 99, 100, 101, 2 ** 31 * 100 - 1, 2 ** 31 * 100 + 1),
    );
    const price = cents.chain((c) => fc.constantFrom(c / 100, nextUp(c / 100), c / 10));
    fc.assert(
      fc.property(fc.array(price, { minLength: 1, maxLength: 8 }), (prices) => {
        const value = { n: prices[0], list: prices.map((q) => ({ q, i: 1 })) };
        expect(fast(value)).toBe(walking(value));
      }),
      { numRuns: 2_000 },
    );
    for (const x of [0.01, 0.05, 0.1, 0.5, 12.05, 24.25, 99.99, 1234567.89, 21474836.47, 2 ** 31 - 0.01]) {
      for (const q of [x, nextUp(x)]) expect(fast({ n: q, list: [] })).toBe(`{"n":${q},"list":[]}`);
    }
  });

  it('writes a seller string that looks like a number or like JSON as that string, escaped, in a float field too', () => {
    const notes = ['24', '24.0', '"q":2', 'back\\slash', '~float~0000~5'];
    for (const note of notes) {
      const text = fast({ n: '7', list: [{ q: 2, i: 3, note }] });
      expect(text).toBe(`{"n":"7","list":[{"q":2.0,"i":3,"note":${JSON.stringify(note)}}]}`);
      expect(JSON.parse(text)).toEqual({ n: '7', list: [{ q: 2, i: 3, note }] });
    }
  });

  it('writes a frozen value as any other: the writer only reads the value', () => {
    const frozen = Object.freeze({ n: 4, list: Object.freeze([Object.freeze({ q: 5, i: 6 })]) });
    expect(fast(frozen)).toBe('{"n":4.0,"list":[{"q":5.0,"i":6}]}');
    expect(fast(frozen)).toBe(walking(frozen));
  });
});

/** Values shaped like the schema, with wrong types, escapes, lone surrogates and extra keys mixed in. */
function shapedLike(schema: TSchema, depth = 0): fc.Arbitrary<unknown> {
  const s = schema as { type?: string; items?: TSchema; properties?: Record<string, TSchema> };
  const odd = fc.oneof(
    fc.jsonValue({ maxDepth: 2 }),
    fc.string({ unit: 'binary' }),
    fc.constantFrom(-0, 1e21, 2 ** 53, Number.NaN, Infinity, null, undefined),
  );
  const right = (() => {
    switch (s.type) {
      case 'number':
        return fc.oneof(fc.integer(), fc.double(), fc.constantFrom(0, -0, 24, 1e21, -1e300));
      case 'integer':
        return fc.oneof(fc.integer(), fc.constantFrom(-0, 2 ** 53));
      case 'string':
        return fc.oneof(
          fc.string(),
          fc.string({ unit: 'binary' }),
          fc.constantFrom('a"b', 'back\\slash', 'line\nbreak', '\ud800', '\u2028'),
        );
      case 'boolean':
        return fc.boolean();
      case 'array':
        return depth > 4 ? fc.constant([]) : fc.array(shapedLike(s.items!, depth + 1), { maxLength: 3 });
      case 'object':
        if (depth > 4) return fc.constant({});
        return fc
          .tuple(
            fc.record(
              Object.fromEntries(
                Object.entries(s.properties ?? {}).map(([key, value]) => [key, shapedLike(value, depth + 1)]),
              ),
              { requiredKeys: [] },
            ),
            fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2 }),
          )
          .map(([known, extra]) => ({ ...extra, ...known }));
      default:
        return fc.jsonValue({ maxDepth: 2 });
    }
  })();
  return fc.oneof({ arbitrary: right, weight: 9 }, { arbitrary: odd, weight: 1 });
}

describe('generated writer', () => {
  it.each(['item-inquiry', 'place-order', 'invoice', 'statement'] as const)(
    '%s buyer reply: byte for byte what the walking writer writes',
    (operation) => {
      const schema = PAYLOADS[operation]['buyer-reply'];
      const walking = compileFloatJsonByWalking(schema);
      fc.assert(
        fc.property(shapedLike(schema), (value) => {
          const written = buyerReplyJson[operation](value);
          expect(written.toString('utf8')).toBe(walking(value));
          expect(written.equals(Buffer.from(walking(value), 'utf8'))).toBe(true);
        }),
        { numRuns: 300 },
      );
    },
  );
});

describe('generated writer output', () => {
  const write = compileFloatJson(
    Type.Object({
      name: Type.String(),
      n: Type.Number(),
      list: Type.Array(Type.Object({ q: Type.Number(), note: Type.String() })),
    }),
  );

  it('gives each reply its own bytes: writing the next ones does not change the last, across slabs', () => {
    const first = write({ name: 'first', n: 1, list: [] });
    const second = write({ name: 'second', n: 2, list: [{ q: 3, note: 'x' }] });
    // Enough replies to fill several 64 KB slabs, each checked after all were written.
    const many = Array.from({ length: 3_000 }, (_, i) => ({
      value: { name: `r${i}`, n: i, list: [{ q: i / 2, note: 'n'.repeat(i % 40) }] },
      written: undefined as Buffer | undefined,
    }));
    for (const reply of many) reply.written = write(reply.value);
    expect(first.toString('utf8')).toBe('{"name":"first","n":1.0,"list":[]}');
    expect(second.toString('utf8')).toBe('{"name":"second","n":2.0,"list":[{"q":3.0,"note":"x"}]}');
    for (const reply of many) expect(JSON.parse(reply.written!.toString('utf8'))).toEqual(reply.value);
  });

  it('writes nothing of a reply that fails, and the next one whole', () => {
    const failing = write as (value: unknown) => Buffer;
    const poisoned = {
      name: 'x',
      n: 1,
      list: [
        {
          q: 1,
          note: 'a',
          extra: {
            toJSON: () => {
              throw new Error('boom');
            },
          },
        },
      ],
    };
    expect(() => failing(poisoned)).toThrow('boom');
    expect(write({ name: 'after', n: 1, list: [] }).toString('utf8')).toBe('{"name":"after","n":1.0,"list":[]}');
  });

  it('grows past its scratch buffer for a large reply and writes small ones correctly after it', () => {
    const list = Array.from({ length: 20_000 }, (_, i) => ({ q: i, note: `note ${i} ünïcödé "quoted"` }));
    const large = write({ name: 'large', n: 0.5, list });
    expect(large.length).toBeGreaterThan(1_048_576);
    expect(JSON.parse(large.toString('utf8'))).toEqual({ name: 'large', n: 0.5, list });
    expect(large.toString('utf8')).toBe(
      compileFloatJsonByWalking(
        Type.Object({
          name: Type.String(),
          n: Type.Number(),
          list: Type.Array(Type.Object({ q: Type.Number(), note: Type.String() })),
        }),
      )({ name: 'large', n: 0.5, list }),
    );
    expect(write({ name: 'small', n: 7, list: [] }).toString('utf8')).toBe('{"name":"small","n":7.0,"list":[]}');
  });

  it('writes non-ASCII text and escapes as UTF-8 JSON', () => {
    const value = {
      name: 'Motorenöl 5W-30 \u2028 "tab\t" \ud83d\ude97 \ud800',
      n: -12,
      list: [{ q: 1e-7, note: 'back\\slash' }],
    };
    const written = write(value);
    expect(written.equals(Buffer.from(JSON.stringify(value).replace('"n":-12', '"n":-12.0'), 'utf8'))).toBe(true);
  });
});
