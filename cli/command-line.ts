import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { CommandIo } from './command-io';

type ParseArgsOptionsConfig = NonNullable<ParseArgsConfig['options']>;

// What every subcommand does with its argv: parse strictly, check a few kinds of value, and
// turn anything wrong into a UsageError (exit 2) whose message names the flag at fault, in one
// line, with the nearest flag of the command when the one typed is not known (as git and cargo do).

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** Edits (insert, delete, substitute, swap two neighbours) from `a` to `b`. */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.length][b.length];
}

/**
 * The known name closest to `typed`: within a third of its length in edits (at least one), or
 * the only one it begins (`--seller` for `--seller-url`); none when nothing is that close.
 */
export function closest(typed: string, known: string[]): string | undefined {
  const limit = Math.max(1, Math.floor(typed.length / 3));
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const distance = editDistance(typed, name);
    if (distance <= limit && (best === undefined || distance < best.distance)) best = { name, distance };
  }
  if (best !== undefined) return best.name;
  const extending = known.filter((name) => typed.length >= 3 && name.startsWith(typed));
  return extending.length === 1 ? extending[0] : undefined;
}

/** parseArgs's message for what is wrong with the command line, in one line of our own. */
function usageMessage(error: Error & { code?: string }, options: ParseArgsOptionsConfig): string {
  const quoted = /'([^']*)'/.exec(error.message)?.[1] ?? '';
  const flag = quoted.split(' ')[0];
  switch (error.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION': {
      const near = flag.startsWith('--') ? closest(flag.slice(2), Object.keys(options)) : undefined;
      return `unknown option '${flag}'${near !== undefined ? ` (did you mean --${near}?)` : ''}`;
    }
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return `unexpected argument '${quoted}' (options start with --)`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return / does not take an argument/.test(error.message) ? `${flag} takes no value` : `${flag} needs a value`;
    default:
      return error.message.split('\n')[0];
  }
}

/** `options` with `-h` for --help, as every command takes it (unless `-h` means something else). */
function withShortHelp<O extends ParseArgsOptionsConfig>(options: O): O {
  if (!('help' in options) || Object.values(options).some((o) => o.short === 'h')) return options;
  return { ...options, help: { ...options.help, short: 'h' } };
}

/** The flags of `argv` (no positionals, no unknown flags), typed by `options`. */
export function strictArgs<const O extends ParseArgsOptionsConfig>(argv: string[], options: O) {
  try {
    return parseArgs({ args: argv, options: withShortHelp(options), strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw new UsageError(usageMessage(error as Error, options));
  }
}

/** The flags and at most `most` plain arguments of `argv` (`replay <file>`). */
export function argsWithPositionals<const O extends ParseArgsOptionsConfig>(argv: string[], options: O, most: number) {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: withShortHelp(options), strict: true, allowPositionals: true });
  } catch (error) {
    throw new UsageError(usageMessage(error as Error, options));
  }
  if (parsed.positionals.length > most) throw new UsageError(`unexpected argument '${parsed.positionals[most]}'`);
  return parsed;
}

/** Where a usage error sends the reader: the command's own --help. */
export const helpHint = (command: string): string => `Run 'federated-gateway ${command} --help' for the options.`;

/** A usage error as every command reports it: one line naming the fault, one pointing at --help; exit 2. */
export function usageFailure(command: string, error: UsageError, io: Pick<CommandIo, 'stderr'>): number {
  io.stderr(`${command}: ${error.message}\n${helpHint(command)}\n`);
  return 2;
}

/** A command line read: the options to run with, or the exit code once --help or a usage error was answered. */
export type Parsed<O> = { kind: 'run'; options: O } | { kind: 'exit'; code: number };

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
