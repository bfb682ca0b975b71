import type { Context } from 'hono';
import type { Static, TSchema } from '@sinclair/typebox';
import { compileValidator, type Validator } from '../../contracts/index';
import { bodyNotJson, RequestValidationError } from '../errors';
import { readJsonBody, type JsonBodyOptions } from '../../shared/http/json-body';

// Catalog bodies and query strings, checked against their contract schema: a 4422 naming
// every field at fault, never a crash on bad JSON.

const compiled = new WeakMap<TSchema, Validator<unknown>>();
function validatorOf<T extends TSchema>(schema: T): Validator<Static<T>> {
  let v = compiled.get(schema);
  if (!v) compiled.set(schema, (v = compileValidator(schema) as Validator<unknown>));
  return v as Validator<Static<T>>;
}

export function checked<T extends TSchema>(schema: T, data: unknown, what: string): Static<T> {
  const result = validatorOf(schema)(data);
  if (!result.valid) {
    const first = result.errors[0];
    throw new RequestValidationError(
      `${what} is not valid: ${first.path || '(body)'} ${first.message}${result.errors.length > 1 ? ` (and ${result.errors.length - 1} more)` : ''}`,
      result.errors.map(({ path, message }) => ({ path, message })),
    );
  }
  return data as Static<T>;
}

/** The body read as JSON (an empty one standing for `emptyAs` when given) and checked against `schema`. */
export async function readBody<T extends TSchema>(
  c: Context,
  schema: T,
  options: JsonBodyOptions = {},
): Promise<Static<T>> {
  return checked(schema, await readJsonBody(c, bodyNotJson, options), 'the body');
}

/** Query parameters as an object; integer-looking values of `integerNames` become numbers. */
export function readQuery<T extends TSchema>(c: Context, schema: T, integerNames: string[]): Static<T> {
  const query: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(c.req.query())) {
    query[name] = integerNames.includes(name) && /^-?\d{1,9}$/.test(value) ? Number(value) : value;
  }
  return checked(schema, query, 'the query string');
}
