import { Type, type StaticDecode, type TObject, type TSchema } from '@sinclair/typebox';
import { TransformDecodeError, Value } from '@sinclair/typebox/value';
import { availableParallelism } from 'node:os';

// Every process reads its environment through one TypeBox schema of its own, validated at
// start: a bad value stops the process with the variable's name, what it must be and what it
// was. The variables are strings; each field says how it decodes (integer, list, flag…).
// The same schemas render the configuration tables of docs/reference/environment.md
// (environmentTable), and a test keeps the two equal.

/** What a field promises, for messages and the environment reference table. */
interface EnvDoc {
  description: string;
  /** How the default reads in the table when it is not the literal value (e.g. "the seeded mock seller"). */
  defaultText?: string;
}

const EXPECTS = 'x-expects';
const SECRET = 'x-secret';

const field = <T extends TSchema>(schema: T, expects: string): T => Object.assign(schema, { [EXPECTS]: expects });
const withDefault = (value: string | undefined) => (value === undefined ? {} : { default: value });

export interface EnvIntegerOptions extends EnvDoc {
  default?: number;
  minimum?: number;
  maximum?: number;
}

/** A whole number; `default` left out makes it optional (undefined when unset). */
export function EnvInteger(options: EnvIntegerOptions) {
  const { minimum = 0, maximum } = options;
  const expects = `an integer ≥ ${minimum}${maximum === undefined ? '' : ` and ≤ ${maximum}`}`;
  return field(
    Type.Transform(
      Type.String({
        pattern: '^[0-9]+$',
        description: options.description,
        defaultText: options.defaultText,
        ...withDefault(options.default?.toString()),
      }),
    )
      .Decode((value) => {
        const number = Number(value);
        if (number < minimum || (maximum !== undefined && number > maximum) || !Number.isSafeInteger(number))
          throw new Error(expects);
        return number;
      })
      .Encode(String),
    expects,
  );
}

/** Free text (a host, a path, a token). A `secret` one is never quoted in messages. */
export function EnvString(options: EnvDoc & { default?: string; minLength?: number; secret?: boolean }) {
  const expects = options.minLength === undefined ? 'a string' : `at least ${options.minLength} characters long`;
  return field(
    Type.String({
      description: options.description,
      defaultText: options.defaultText,
      minLength: options.minLength,
      [SECRET]: options.secret === true,
      ...withDefault(options.default),
    }),
    expects,
  );
}

/** An absolute http(s) URL. */
export function EnvUrl(options: EnvDoc & { default?: string; schemes?: string[] }) {
  const schemes = options.schemes ?? ['http:', 'https:'];
  const expects = `a URL (${schemes.map((s) => `${s}//…`).join(' or ')})`;
  return field(
    Type.Transform(
      Type.String({
        description: options.description,
        defaultText: options.defaultText,
        ...withDefault(options.default),
      }),
    )
      .Decode((value) => {
        let url: URL;
        try {
          url = new URL(value);
        } catch {
          throw new Error(expects);
        }
        if (!schemes.includes(url.protocol)) throw new Error(expects);
        return value;
      })
      .Encode((value) => value),
    expects,
  );
}

/** A comma-separated list; blanks dropped. */
export function EnvList(options: EnvDoc & { default?: string[]; lowerCase?: boolean }) {
  return field(
    Type.Transform(
      Type.String({
        description: options.description,
        defaultText: options.defaultText,
        ...withDefault(options.default?.join(',')),
      }),
    )
      .Decode((value) =>
        value
          .split(',')
          .map((item) => (options.lowerCase ? item.trim().toLowerCase() : item.trim()))
          .filter((item) => item !== ''),
      )
      .Encode((items) => items.join(',')),
    'a comma-separated list',
  );
}

const ON = /^(on|true|1|yes)$/i;
const OFF = /^(off|false|0|no)$/i;

/** on/off (also true/false, 1/0, yes/no); `default` left out makes it optional (undefined when unset). */
export function EnvFlag(options: EnvDoc & { default?: boolean }) {
  const expects = 'on or off (true/false, 1/0, yes/no)';
  const fallback = options.default === undefined ? undefined : options.default ? 'on' : 'off';
  return field(
    Type.Transform(
      Type.String({ description: options.description, defaultText: options.defaultText, ...withDefault(fallback) }),
    )
      .Decode((value) => {
        if (ON.test(value)) return true;
        if (OFF.test(value)) return false;
        throw new Error(expects);
      })
      .Encode((value) => (value ? 'on' : 'off')),
    expects,
  );
}

/** One of a few words (case-insensitive). */
export function EnvChoice<const T extends readonly string[]>(choices: T, options: EnvDoc & { default?: T[number] }) {
  const expects = `one of ${choices.join(', ')}`;
  return field(
    Type.Transform(
      Type.String({
        description: options.description,
        defaultText: options.defaultText,
        ...withDefault(options.default),
      }),
    )
      .Decode((value) => {
        const choice = choices.find((c) => c === value.toLowerCase());
        if (choice === undefined) throw new Error(expects);
        return choice as T[number];
      })
      .Encode((value) => value),
    expects,
  );
}

/** A comma-separated list of some of `choices` (`all` or `none` for every one or none); default all. */
export function EnvChoiceList<const T extends readonly string[]>(choices: T, options: EnvDoc) {
  const expects = `all, none, or a comma-separated list of ${choices.join(', ')}`;
  return field(
    Type.Transform(Type.String({ description: options.description, defaultText: options.defaultText, default: 'all' }))
      .Decode((value): T[number][] => {
        const items = value
          .split(',')
          .map((item) => item.trim().toLowerCase())
          .filter((item) => item !== '');
        if (items.length === 1 && items[0] === 'all') return [...choices];
        if (items.length === 1 && items[0] === 'none') return [];
        const unknown = items.filter((item) => !choices.includes(item));
        if (unknown.length > 0) throw new Error(`${expects} (unknown: ${unknown.join(', ')})`);
        return items as T[number][];
      })
      .Encode((items) => items.join(',')),
    expects,
  );
}

/** How many processes: a whole number ≥ 1, or `auto` (the CPUs this process may use). */
export function EnvCount(options: EnvDoc & { default: number }) {
  const expects = 'a whole number ≥ 1 or auto';
  return field(
    Type.Transform(
      Type.String({
        pattern: '^([1-9][0-9]{0,3}|auto)$',
        description: options.description,
        defaultText: options.defaultText,
        default: String(options.default),
      }),
    )
      .Decode((value) => (value === 'auto' ? availableParallelism() : Number(value)))
      .Encode(String),
    expects,
  );
}

/** Makes a field without a default optional (undefined when unset). */
export const Optional = <T extends TSchema>(schema: T) => Type.Optional(schema);

export interface EnvironmentProblem {
  name: string;
  message: string;
}

/** One or more variables are set to something the process cannot use. */
export class EnvironmentError extends Error {
  constructor(readonly problems: EnvironmentProblem[]) {
    super(problems.map((p) => p.message).join('; '));
    this.name = 'EnvironmentError';
  }
}

const nameOf = (path: string) => path.replace(/^\//, '');
const shown = (schema: TObject, name: string, value: string | undefined) =>
  (schema.properties[name] as Record<string, unknown>)[SECRET] === true ? ' (value not shown)' : `, not '${value}'`;

/**
 * The variables of `schema` from `env`, decoded: blank values count as unset, defaults
 * filled in, other variables ignored. Throws EnvironmentError naming every bad variable.
 */
export function readEnvironment<S extends TObject>(schema: S, env: NodeJS.ProcessEnv = process.env): StaticDecode<S> {
  const given: Record<string, string> = {};
  for (const name of Object.keys(schema.properties)) {
    const value = env[name]?.trim();
    if (value !== undefined && value !== '') given[name] = value;
  }
  const values = Value.Default(schema, given) as Record<string, string>;
  const problems: EnvironmentProblem[] = [];
  const seen = new Set<string>();
  for (const error of Value.Errors(schema, values)) {
    const name = nameOf(error.path);
    if (seen.has(name)) continue;
    seen.add(name);
    problems.push({
      name,
      message: `${name} must be ${(schema.properties[name] as Record<string, unknown> | undefined)?.[EXPECTS] ?? 'valid'}${shown(schema, name, values[name])}`,
    });
  }
  // Decoding checks what a pattern cannot (ranges, URLs, choices), one variable at a time so
  // that every bad one is named, not only the first.
  for (const [name, property] of Object.entries(schema.properties)) {
    if (seen.has(name) || values[name] === undefined) continue;
    try {
      Value.Decode(property, values[name]);
    } catch (error) {
      const reason = error instanceof TransformDecodeError ? error.error.message : (error as Error).message;
      problems.push({ name, message: `${name} must be ${reason}${shown(schema, name, values[name])}` });
    }
  }
  if (problems.length > 0) throw new EnvironmentError(problems);
  return Value.Decode(schema, values);
}

export interface EnvironmentRow {
  name: string;
  /** The default as the environment reference shows it ('' when there is none). */
  default: string;
  description: string;
}

/** The schema's variables as rows, in schema order, for the environment reference's tables. */
export function environmentRows(schema: TObject): EnvironmentRow[] {
  return Object.entries(schema.properties).map(([name, property]) => {
    const p = property as { default?: string; defaultText?: string; description?: string };
    return { name, default: p.defaultText ?? p.default ?? '', description: p.description ?? '' };
  });
}

/** A Markdown table of the schema's variables. */
export function environmentTable(schema: TObject): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|');
  const lines = ['| variable | default | meaning |', '| --- | --- | --- |'];
  for (const row of environmentRows(schema))
    lines.push(
      `| \`${row.name}\` | ${row.default === '' ? '—' : `\`${cell(row.default)}\``} | ${cell(row.description)} |`,
    );
  return lines.join('\n');
}
