import { ISO_3166_ALPHA2 } from './country-codes';

// String formats the specification names. Each is a plain predicate so the Ajv
// validators, the reply rules and the mock seller all agree on one definition.

const PHONE = /^\+?1?\d{10}$/;
// Pragmatic e-mail check: one @, no spaces, a dotted domain. RFC 5322 in full accepts
// addresses no mail system delivers to.
const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

// Dates and route times are checked by hand, not by regex: a large seller reply carries
// thousands of them and this runs on every reply (see scripts/bench-contracts.ts).

/** The number written by `length` ASCII digits at `start`, or -1 if any is not a digit. */
function digitsAt(value: string, start: number, length: number): number {
  let n = 0;
  for (let i = start; i < start + length; i++) {
    const c = value.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    n = n * 10 + c;
  }
  return n;
}

function dayExists(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const max = month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1];
  return day <= max;
}

/** `YYYY-MM-DD` at `start`, a day that exists on the calendar. */
function dateAt(value: string, start: number): boolean {
  if (value.charCodeAt(start + 4) !== 45 || value.charCodeAt(start + 7) !== 45) return false; // '-'
  const year = digitsAt(value, start, 4);
  return year >= 0 && dayExists(year, digitsAt(value, start + 5, 2), digitsAt(value, start + 8, 2));
}

/** `YYYY-MM-DD` and a day that exists on the calendar (2026-02-30 does not). */
export function isCalendarDate(value: string): boolean {
  return value.length === 10 && dateAt(value, 0);
}

/** Route times: `YYYY-MM-DD HH:MM:SS`, a real day and a real time of day. */
export function isRouteTime(value: string): boolean {
  if (value.length !== 19 || value.charCodeAt(10) !== 32 || value.charCodeAt(13) !== 58 || value.charCodeAt(16) !== 58) return false;
  if (!dateAt(value, 0)) return false;
  const h = digitsAt(value, 11, 2);
  const m = digitsAt(value, 14, 2);
  const s = digitsAt(value, 17, 2);
  return h >= 0 && h < 24 && m >= 0 && m < 60 && s >= 0 && s < 60;
}

export const isPhoneNumber = (value: string): boolean => PHONE.test(value);
export const isEmail = (value: string): boolean => value.length <= 254 && EMAIL.test(value);
export const isCountryCode = (value: string): boolean => ISO_3166_ALPHA2.has(value);

/** Format names used in the schemas, with their predicates. */
export const FORMATS = {
  date: isCalendarDate,
  'route-time': isRouteTime,
  email: isEmail,
  'country-code': isCountryCode,
} as const;
export type FormatName = keyof typeof FORMATS;

/** Explains a failed format in words a developer can act on. */
export const FORMAT_HINTS: Record<FormatName, string> = {
  date: 'must be a calendar date YYYY-MM-DD',
  'route-time': 'must be a date and time YYYY-MM-DD HH:MM:SS',
  email: 'must be an e-mail address',
  'country-code': 'must be an ISO 3166-1 alpha-2 country code',
};
