import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { Static, TSchema } from '@sinclair/typebox';
import { FORMATS, FORMAT_HINTS, type FormatName } from './formats';
import { PAYLOADS } from './schemas/index';

/** One problem with a payload: where (a JSON pointer to the field) and what. */
export interface ValidationIssue {
  path: string;
  message: string;
  keyword: string;
}

export interface ValidationResult {
  valid: boolean;
  /** Every error, not just the first. */
  errors: ValidationIssue[];
  /** Fields a seller sent beyond the contract: allowed, but worth showing in a report. */
  notes: ValidationIssue[];
}

export interface Validator<T> {
  (data: unknown): ValidationResult;
  /** Type guard for hot paths that only need yes or no. */
  is(data: unknown): data is T;
  readonly schema: TSchema;
}

const ajv = new Ajv({ allErrors: true, strict: false, coerceTypes: false, useDefaults: false });
for (const [name, check] of Object.entries(FORMATS)) ajv.addFormat(name, { type: 'string', validate: check });

/**
 * Open objects (seller replies) accept extra fields. To report the extras as notes in the
 * same single pass, we compile a copy in which every open object is closed and remember
 * where those objects are: an `additionalProperties` error there is a note, not an error.
 */
function closeOpenObjects(schema: unknown, at: string, openAt: Set<string>): unknown {
  if (Array.isArray(schema)) return schema.map((s, i) => closeOpenObjects(s, `${at}/${i}`, openAt));
  if (schema === null || typeof schema !== 'object') return schema;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) copy[key] = closeOpenObjects(value, `${at}/${key}`, openAt);
  if (copy.type === 'object' && copy.additionalProperties === true) {
    copy.additionalProperties = false;
    openAt.add(`${at}/additionalProperties`);
  }
  return copy;
}

const pointer = (base: string, field: string) => `${base}/${field.replace(/~/g, '~0').replace(/\//g, '~1')}`;

function describe(error: ErrorObject): ValidationIssue {
  const { keyword, params, instancePath } = error;
  switch (keyword) {
    case 'required':
      return { keyword, path: pointer(instancePath, params.missingProperty), message: 'is required' };
    case 'additionalProperties':
      return {
        keyword,
        path: pointer(instancePath, params.additionalProperty),
        message: `unknown field '${params.additionalProperty}'`,
      };
    case 'format':
      return {
        keyword,
        path: instancePath,
        message: FORMAT_HINTS[params.format as FormatName] ?? `must be of format ${params.format}`,
      };
    case 'enum':
      return { keyword, path: instancePath, message: `must be one of ${params.allowedValues.join(', ')}` };
    case 'const':
      return { keyword, path: instancePath, message: `must be ${JSON.stringify(params.allowedValue)}` };
    case 'type':
      return { keyword, path: instancePath, message: `must be ${/^[aeiou]/.test(params.type) ? 'an' : 'a'} ${params.type}` };
    case 'minLength':
      return { keyword, path: instancePath, message: params.limit === 1 ? 'must not be empty' : `must have at least ${params.limit} characters` };
    case 'minItems':
      return { keyword, path: instancePath, message: `must have at least ${params.limit} item${params.limit === 1 ? '' : 's'}` };
    case 'minimum':
    case 'exclusiveMinimum':
      return { keyword, path: instancePath, message: `must be ${params.comparison} ${params.limit}` };
    default:
      return { keyword, path: instancePath, message: error.message ?? keyword };
  }
}

export function compileValidator<T extends TSchema>(schema: T): Validator<Static<T>> {
  const openAt = new Set<string>();
  const check: ValidateFunction = ajv.compile(closeOpenObjects(schema, '#', openAt) as object);

  const validate = ((data: unknown): ValidationResult => {
    if (check(data)) return { valid: true, errors: [], notes: [] };
    const errors: ValidationIssue[] = [];
    const notes: ValidationIssue[] = [];
    for (const error of check.errors ?? []) {
      const issue = describe(error);
      if (error.keyword === 'additionalProperties' && openAt.has(error.schemaPath)) notes.push(issue);
      else errors.push(issue);
    }
    return { valid: errors.length === 0, errors, notes };
  }) as Validator<Static<T>>;

  (validate as { is: unknown }).is = (data: unknown): data is Static<T> => validate(data).valid;
  (validate as { schema: unknown }).schema = schema;
  return validate;
}

type CompiledPayloads = {
  [Op in keyof typeof PAYLOADS]: {
    [Role in keyof (typeof PAYLOADS)[Op]]: (typeof PAYLOADS)[Op][Role] extends TSchema
      ? Validator<Static<(typeof PAYLOADS)[Op][Role]>>
      : never;
  };
};

/** Every payload's validator, compiled once when this module loads. */
export const validators = Object.fromEntries(
  Object.entries(PAYLOADS).map(([operation, roles]) => [
    operation,
    Object.fromEntries(Object.entries(roles).map(([role, schema]) => [role, compileValidator(schema)])),
  ]),
) as unknown as CompiledPayloads;
