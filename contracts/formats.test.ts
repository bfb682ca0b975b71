import { describe, it, expect } from 'vitest';
import { isCalendarDate, isCountryCode, isEmail, isPhoneNumber, isRouteTime } from './formats';

describe('calendar dates', () => {
  it('accepts days that exist, leap days included', () => {
    for (const d of ['2026-01-31', '2026-02-28', '2024-02-29', '2000-02-29', '2026-04-30', '2026-12-31'])
      expect(isCalendarDate(d)).toBe(true);
  });
  it('rejects days that do not exist (2026-02-30) and other layouts', () => {
    for (const d of [
      '2026-02-30',
      '2026-02-29',
      '1900-02-29',
      '2026-04-31',
      '2026-13-01',
      '2026-00-10',
      '2026-01-00',
      '2026-1-01',
      '20260101',
      '2026/01/01',
      '2026-01-01 ',
      ' 2026-01-01',
      '2026-01-0a',
      '2026-01-01T00:00:00',
    ]) {
      expect(isCalendarDate(d), d).toBe(false);
    }
  });
});

describe('route times', () => {
  it('accepts YYYY-MM-DD HH:MM:SS on a real day', () => {
    for (const t of ['2026-03-02 14:30:00', '2024-02-29 00:00:00', '2026-12-31 23:59:59'])
      expect(isRouteTime(t)).toBe(true);
  });
  it('rejects impossible days and times and other layouts', () => {
    for (const t of [
      '2026-02-30 10:00:00',
      '2026-03-02 24:00:00',
      '2026-03-02 10:60:00',
      '2026-03-02 10:00:60',
      '2026-03-02T10:00:00',
      '2026-03-02 10:00',
      '2026-03-02 1:00:00',
      '2026-03-02 10:0a:00',
      '2026-03-02  10:00:0',
    ]) {
      expect(isRouteTime(t), t).toBe(false);
    }
  });
});

describe('phone numbers (+?1?\\d{10})', () => {
  it('accepts the forms of the pattern', () => {
    for (const p of ['5555550142', '15555550142', '+15555550142', '+5555550142']) expect(isPhoneNumber(p)).toBe(true);
  });
  it('rejects anything else', () => {
    for (const p of ['555-555-0142', '555555014', '255555550142', '+1 5555550142', '', '５５５５５５０１４２'])
      expect(isPhoneNumber(p), p).toBe(false);
  });
});

describe('e-mail and country codes', () => {
  it('e-mail: one @ and a dotted domain', () => {
    expect(isEmail('dana.reyes@demo-garage.example')).toBe(true);
    for (const e of [
      'dana',
      'dana@',
      '@demo.example',
      'dana@demo',
      'da na@demo.example',
      'a@b@c.example',
      'dana@demo..example',
    ])
      expect(isEmail(e), e).toBe(false);
  });
  it('e-mail: no NUL and no lone surrogate, which the store cannot hold; a surrogate pair is a character', () => {
    for (const e of [
      'da\u0000na@demo.example',
      'dana@demo.exam\u0000ple',
      'da\ud800na@demo.example',
      'dana@demo.\udc00x',
    ])
      expect(isEmail(e), JSON.stringify(e)).toBe(false);
    expect(isEmail('dana\u{1F600}@demo.example')).toBe(true);
  });
  it('country codes: assigned ISO 3166-1 alpha-2 codes only, upper case', () => {
    for (const c of ['US', 'CA', 'MX', 'DE', 'GB']) expect(isCountryCode(c)).toBe(true);
    for (const c of ['XX', 'UK', 'us', 'USA', '']) expect(isCountryCode(c), c).toBe(false);
  });
});
