import { ISO_3166_ALPHA2 } from './country-codes';

// String formats the specification names. Each is a plain predicate so the Ajv
// validators, the reply rules and the mock seller all agree on one definition.

const PHONE = /^\+?1?\d{10}$/;
// Pragmatic e-mail check: one @, no spaces, a dotted domain. RFC 5322 in full accepts
// addresses no mail system delivers to. No NUL and no lone surrogate either (the store's
// text cannot hold them): with the `u` flag a surrogate pair is one character and passes.
const EMAIL = /^[^\s@\0\uD800-\uDFFF]+@[^\s@.\0\uD800-\uDFFF]+(\.[^\s@.\0\uD800-\uDFFF]+)+$/u;

const DAYS_IN_MONTH = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

// Dates and route times are checked by hand, not by regex: a large seller reply carries
// thousands of them and this runs on every reply (see lab/bench-contracts.ts).
// Each digit is `charCode - 48`; `(d >>> 0) > 9` is true for anything but '0'-'9'.

function dayExists(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  if (day <= 28) return true;
  if (month !== 2) return day <= DAYS_IN_MONTH[month];
  return day <= ((year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28);
}

/** `YYYY-MM-DD` at the start of `value`: a day that exists on the calendar. */
function leadingDate(value: string): boolean {
  if (value.charCodeAt(4) !== 45 || value.charCodeAt(7) !== 45) return false; // '-'
  const y0 = value.charCodeAt(0) - 48,
    y1 = value.charCodeAt(1) - 48,
    y2 = value.charCodeAt(2) - 48,
    y3 = value.charCodeAt(3) - 48;
  const m0 = value.charCodeAt(5) - 48,
    m1 = value.charCodeAt(6) - 48,
    d0 = value.charCodeAt(8) - 48,
    d1 = value.charCodeAt(9) - 48;
  if (
    y0 >>> 0 > 9 ||
    y1 >>> 0 > 9 ||
    y2 >>> 0 > 9 ||
    y3 >>> 0 > 9 ||
    m0 >>> 0 > 9 ||
    m1 >>> 0 > 9 ||
    d0 >>> 0 > 9 ||
    d1 >>> 0 > 9
  )
    return false;
  return dayExists(y0 * 1000 + y1 * 100 + y2 * 10 + y3, m0 * 10 + m1, d0 * 10 + d1);
}

/** `YYYY-MM-DD` and a day that exists on the calendar (2026-02-30 does not). */
export function isCalendarDate(value: string): boolean {
  return value.length === 10 && leadingDate(value);
}

/** Route times: `YYYY-MM-DD HH:MM:SS`, a real day and a real time of day. */
export function isRouteTime(value: string): boolean {
  if (value.length !== 19 || value.charCodeAt(10) !== 32 || value.charCodeAt(13) !== 58 || value.charCodeAt(16) !== 58)
    return false; // ' ', ':'
  const h0 = value.charCodeAt(11) - 48,
    h1 = value.charCodeAt(12) - 48,
    i0 = value.charCodeAt(14) - 48,
    i1 = value.charCodeAt(15) - 48;
  const s0 = value.charCodeAt(17) - 48,
    s1 = value.charCodeAt(18) - 48;
  if (h0 >>> 0 > 2 || h1 >>> 0 > 9 || h0 * 10 + h1 > 23 || i0 >>> 0 > 5 || i1 >>> 0 > 9 || s0 >>> 0 > 5 || s1 >>> 0 > 9)
    return false;
  return leadingDate(value);
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
