import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { materialize, mutationArbitrary, type RequestTemplate } from './request-mutations';

const template: RequestTemplate = {
  method: 'POST',
  path: '/things/{id}',
  pathValues: { id: '7' },
  query: { q: 'brake' },
  headers: { 'content-type': 'application/json' },
  body: { items: [{ id: 'a', qty: 2 }], note: 'x' },
  maxBodyBytes: 1_000,
};

describe('the fuzzer’s mutations', () => {
  it('write raw JSON text JSON.stringify cannot: 1e400, a lone surrogate escape, 10,000-deep nesting', () => {
    const at = (kind: 'number' | 'string' | 'deep-nesting', a: number, b: number) =>
      materialize(template, { kind, a, b });
    // Leaves in document order: /items, /items/0, /items/0/id, /items/0/qty, /note.
    expect(at('number', 3, 5).body).toBe('{"items":[{"id":"a","qty":1e400}],"note":"x"}');
    expect(at('string', 2, 3).body).toBe('{"items":[{"id":"\\ud800","qty":2}],"note":"x"}');
    const deep = at('deep-nesting', 0, 0).body!;
    expect(deep.startsWith('['.repeat(10_000) + ']')).toBe(true);
    expect(deep.length).toBe(20_000);
  });

  it('drop a field, leave out the content type, exceed the body limit and keep a lone surrogate in a path as its raw bytes', () => {
    expect(JSON.parse(materialize(template, { kind: 'drop-field', a: 4, b: 0 }).body!)).toEqual({
      items: [{ id: 'a', qty: 2 }],
    });
    expect(materialize(template, { kind: 'content-type', a: 0, b: 0 }).headers['content-type']).toBeUndefined();
    expect(Buffer.byteLength(materialize(template, { kind: 'oversized', a: 0, b: 0 }).body!)).toBeGreaterThan(1_000);
    const parameter = materialize({ ...template, query: {} }, { kind: 'parameter', a: 0, b: 5 });
    expect(parameter.url).toBe('/things/%ED%A0%80');
  });

  it('are the same for the same seed, so a failure can be replayed', () => {
    const draw = () =>
      fc.sample(mutationArbitrary, { seed: 42, numRuns: 20 }).map((m) => materialize(template, m).change);
    expect(draw()).toEqual(draw());
    expect(new Set(draw()).size).toBeGreaterThan(5);
  });
});
