import { parseArgs, type ParseArgsConfig } from 'node:util';

type ParseArgsOptionsConfig = NonNullable<ParseArgsConfig['options']>;

// What every subcommand does with its argv: parse strictly, check a few kinds of value, and
// turn anything wrong into a UsageError (exit 2) whose message names the flag at fault.

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** The flags of `argv` (no positionals, no unknown flags), typed by `options`. */
export function strictArgs<const O extends ParseArgsOptionsConfig>(argv: string[], options: O) {
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** An absolute http(s) URL. */
export function httpUrlArg(flag: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${flag} must be an http(s) URL, got '${value}'`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`${flag} must be an http(s) URL, got '${value}'`);
  return value;
}

/** A whole number from `min` to `max`. */
export function integerArg(flag: string, text: string, min: number, max: number): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < min || value > max)
    throw new UsageError(`${flag} must be a whole number from ${min} to ${max}, got '${text}'`);
  return value;
}

/** Repeated `--header 'name: value'` flags as a map of lower-case names. */
export function headerArgs(flag: string, values: string[] | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const header of values ?? []) {
    const colon = header.indexOf(':');
    if (colon <= 0) throw new UsageError(`${flag} must be 'name: value', got '${header}'`);
    headers[header.slice(0, colon).trim().toLowerCase()] = header.slice(colon + 1).trim();
  }
  return headers;
}
