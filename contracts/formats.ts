import { ISO_3166_ALPHA2 } from './country-codes';

// String formats the specification names. Each is a plain predicate so the Ajv
// validators, the reply rules and the mock seller all agree on one definition.

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;
const PHONE = /^\+?1?\d{10}$/;
// Pragmatic e-mail check: one @, no spaces, a dotted domain. RFC 5322 in full accepts
// addresses no mail system delivers to.
const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function dayExists(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const max = month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1];
  return day <= max;
}

/** `YYYY-MM-DD` and a day that exists on the calendar (2026-02-30 does not). */
export function isCalendarDate(value: string): boolean {
  const m = DATE.exec(value);
  return m !== null && dayExists(+m[1], +m[2], +m[3]);
}

/** Route times: `YYYY-MM-DD HH:MM:SS`, a real day and a real time of day. */
export function isRouteTime(value: string): boolean {
  const m = DATE_TIME.exec(value);
  return m !== null && dayExists(+m[1], +m[2], +m[3]) && +m[4] < 24 && +m[5] < 60 && +m[6] < 60;
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
