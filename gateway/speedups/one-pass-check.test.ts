import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Type } from '@sinclair/typebox';
import { checkSellerReplyInOnePass } from './one-pass-check';
import { checkSellerReply } from '../../contracts/reply-check';
import { generateOnePassWalk } from './one-pass-walk';
import { disagreement, onePassCase } from '../testing/one-pass-cases';
import { buildItemInquiryExchange } from '../../contracts/testing/large-exchange';

// the one-pass check against the reference path on generated exchanges, bounded;
// `npm run -w lab one-pass:agreement -- --runs N --seed S` runs the same property at length.

describe('one-pass seller reply check', () => {
  it('finds exactly what the reference path finds, in the same order, on valid, rule-broken, schema-broken and huge replies', () => {
    fc.assert(
      fc.property(onePassCase(), (c) => {
        expect(disagreement(c)).toBeUndefined();
      }),
      { numRuns: 400 },
    );
  });

  it('the generated cases reach every verdict: clean, rules broken, notes only, schema errors', () => {
    const kinds = new Set<string>();
    for (const c of fc.sample(onePassCase(), { numRuns: 200, seed: 37 })) {
      const check = checkSellerReply('item-inquiry', c.request, JSON.parse(c.replyText));
      kinds.add(
        check.errors.length > 0
          ? 'errors'
          : check.violations.length > 0
            ? 'violations'
            : check.notes.length > 0
              ? 'notes'
              : 'clean',
      );
    }
    expect([...kinds].sort()).toEqual(['clean', 'errors', 'notes', 'violations']);
  });

  it('passes a large valid reply without the reference path, with the verdict of the reference', () => {
    const { request, reply } = buildItemInquiryExchange({ items: 50, alternates: 3, locations: 5 });
    const text = JSON.stringify(reply);
    expect(checkSellerReplyInOnePass('item-inquiry', request, JSON.parse(text))).toEqual({
      ok: true,
      errors: [],
      violations: [],
      notes: [],
    });
    expect(checkSellerReplyInOnePass('item-inquiry', request, JSON.parse(text))).toEqual(
      checkSellerReply('item-inquiry', request, JSON.parse(text)),
    );
  });

  it('refuses to generate a walk for a keyword it does not know, rather than ignore it', () => {
    expect(() => generateOnePassWalk(Type.Object({ a: Type.String({ minLength: 2 }) }))).toThrow(
      /minLength other than 1 at \/a/,
    );
    expect(() => generateOnePassWalk(Type.Union([Type.String(), Type.Number()]))).toThrow(/not supported/);
    expect(() => generateOnePassWalk(Type.Object({ a: Type.String() }), { '/b': { enter: 'x' } })).toThrow(
      /no object at hook path '\/b'/,
    );
  });
});
