import { KitInputError } from './kit-errors';

// The checks every kit function makes on its options before anything starts, each failing
// with a KitInputError that names the option. The commands check their flags first in their
// own words (cli/*-options.ts); these guard a caller of the functions.

/** An absolute http(s) URL. */
export function httpUrlOption(option: string, value: unknown): string {
  let url: URL | undefined;
  try {
    url = typeof value === 'string' ? new URL(value) : undefined;
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw new KitInputError(option, `must be an http(s) URL, got ${JSON.stringify(value)}`);
  return value as string;
}

/** A whole number from `min` to `max`, or `fallback` when not given. */
export function wholeNumberOption(option: string, value: unknown, min: number, max: number, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
    throw new KitInputError(option, `must be a whole number from ${min} to ${max}, got ${JSON.stringify(value)}`);
  return value;
}

/** A number from `min` to `max`, or `fallback` when not given. */
export function numberOption(option: string, value: unknown, min: number, max: number, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max)
    throw new KitInputError(option, `must be a number from ${min} to ${max}, got ${JSON.stringify(value)}`);
  return value;
}

/** Header names and values as strings (names lower-cased, as the commands send them). */
export function headersOption(option: string, value: unknown): Record<string, string> {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new KitInputError(option, 'must be an object of header names and values');
  const headers: Record<string, string> = {};
  for (const [name, text] of Object.entries(value)) {
    if (typeof text !== 'string') throw new KitInputError(option, `the header '${name}' must have a string value`);
    headers[name.toLowerCase()] = text;
  }
  return headers;
}
