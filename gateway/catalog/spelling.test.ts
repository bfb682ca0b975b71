import { describe, expect, it } from 'vitest';
import { closestWord, editDistance } from './spelling';

describe('spelling correction', () => {
  it('counts an adjacent transposition as one edit', () => {
    expect(editDistance('brkae', 'brake')).toBe(1);
    expect(editDistance('brake', 'bracket')).toBe(2);
    expect(editDistance('sprak', 'spark')).toBe(1);
    expect(editDistance('oli', 'oil')).toBe(1);
    expect(editDistance('filtr', 'filter')).toBe(1);
  });
  it('picks the closest word within the edits a word of that length allows', () => {
    const words = ['brake', 'bracket', 'spark', 'sparkle', 'oil', 'filter', 'civic'];
    expect(closestWord('sprak', words)).toBe('spark');
    expect(closestWord('filtr', words)).toBe('filter');
    expect(closestWord('civc', words)).toBe('civic');
    expect(closestWord('oli', words)).toBe('oil');
  });
  it('leaves short words and far-off words alone', () => {
    expect(closestWord('ol', ['oil'])).toBeUndefined();
    expect(closestWord('xyzzy', ['brake', 'spark'])).toBeUndefined();
  });
});
