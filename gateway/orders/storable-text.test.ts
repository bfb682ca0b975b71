import { describe, expect, it } from 'vitest';
import { storableJson, storableText } from './storable-text';

describe('storableJson', () => {
  it('spells out NUL and lone surrogates, in values and names, and round-trips to the readable text', () => {
    const json = storableJson({ 'k\u0000': ['a\u0000b', 'x\ud800', '\udfffy'] });
    expect(json).not.toMatch(/(?<!\\)\\u(0000|d[89a-f])/i);
    expect(JSON.parse(json)).toEqual({ 'k\\u0000': ['a\\u0000b', 'x\\ud800', '\\udfffy'] });
  });

  it('leaves everything else as JSON.stringify writes it: pairs, escaped backslashes, other escapes', () => {
    for (const value of [
      { a: 'emoji \u{1F600}' },
      { a: 'a literal \\u0000 stays' },
      { a: '\\\\u0000' },
      { a: 'tab\tnew\nline\u0001' },
      [1, null, true],
    ]) {
      expect(storableJson(value)).toBe(JSON.stringify(value));
    }
  });
});

describe('storableText', () => {
  it('spells out NUL and lone surrogates and keeps valid pairs', () => {
    expect(storableText('a\u0000b\ud800c\u{1F600}')).toBe('a\\u0000b\\ud800c\u{1F600}');
    expect(storableText('plain')).toBe('plain');
  });
});
