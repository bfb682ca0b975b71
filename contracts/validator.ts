import { Ajv, _, type ErrorObject, type KeywordCxt, type ValidateFunction } from 'ajv';
import type { Static, TSchema } from '@sinclair/typebox';
import { createFormatMemo, type FormatMemo, type FormatMemoSpec } from './format-memo';
import { FORMATS, FORMAT_HINTS, type FormatName } from './formats';
import { PAYLOADS } from './schemas/index';
import { PLAIN_TEXT_PATTERN } from './schemas/common';
import { SEARCH_QUERY_PATTERN } from './schemas/catalog';

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

// Two compilations of each schema. `quick` stops at the first problem and is what nearly
// every call runs (valid payloads); `full` runs only once a payload has failed, to list
// every problem and tell extras (notes) from errors. Collecting errors and telling extras
// apart both cost time on the valid path, which is the path that matters.
// strictNumbers: Infinity (JSON.parse's 1e400) is not a number or integer, on every field of
// every schema; it would otherwise pass `integer` and be forwarded as null. `verbose` keeps
// the value on errors of the full pass only, to say "finite" when a number was refused.
const options = { strict: false, coerceTypes: false, useDefaults: false, strictNumbers: true } as const;
const firstError = new Ajv({ ...options, allErrors: false });
const allErrors = new Ajv({ ...options, allErrors: true, verbose: true });
for (const ajv of [firstError, allErrors]) {
  for (const [name, check] of Object.entries(FORMATS)) ajv.addFormat(name, { type: 'string', validate: check });
}

/**
 * `x-known-properties: { required, optional }` fails an object holding any other key. The
 * quick pass uses it instead of `additionalProperties: false`, which Ajv compiles to a
 * hasOwnProperty call per key once an object has more than 8 properties (most of ours).
 * Counting keys is cheaper still than comparing each: once the required fields are known
 * present, an object has no other key exactly when its key count is the number of
 * required fields plus the optional ones present. Names come from our own schemas.
 */
// Generated inline (a `code` keyword): a `compile` keyword would be called with a data
// context whose instancePath Ajv concatenates for every object, valid or not.
firstError.addKeyword({
  keyword: 'x-known-properties',
  type: 'object',
  schemaType: 'object',
  code: (cxt: KeywordCxt) => {
    const { gen, data } = cxt;
    const { required, optional } = cxt.schema as { required: number; optional: string[] };
    const count = gen.let('keys', 0);
    gen.forIn('key', data, () => gen.code(_`${count}++`));
    let present = _`${required}`;
    for (const name of optional) present = _`${present} + (${data}[${name}] !== undefined ? 1 : 0)`;
    cxt.fail(_`${count} !== ${present}`);
  },
});

/** `x-non-empty`: minLength 1 inline; Ajv's minLength calls a code-point counter per string. */
firstError.addKeyword({
  keyword: 'x-non-empty',
  type: 'string',
  schemaType: 'boolean',
  code: (cxt: KeywordCxt) => cxt.fail(_`${cxt.data}.length === 0`),
});

/**
 * `x-memo-formats: { list, fields }` on an object (a location): the formats of
 * `fields` in each entry of its `list` (route times), checked by a memo of what was accepted
 * at the same place earlier in the payload (contracts/format-memo.ts). The entries' own schemas keep
 * everything but the format in the quick pass; the full pass checks every format as written.
 * The memos made while compiling one schema are collected here, so its validator can make
 * them forget before each payload.
 */
let memosOfCompile: FormatMemo[] = [];
firstError.addKeyword({
  keyword: 'x-memo-formats',
  type: 'object',
  schemaType: 'object',
  code: (cxt: KeywordCxt) => {
    const spec = cxt.schema as FormatMemoSpec;
    const memo = createFormatMemo(spec);
    memosOfCompile.push(memo);
    const holds = cxt.gen.scopeValue('keyword', { ref: memo.holds });
    // Called only for an owner that has the list: without route times a location costs a load.
    cxt.fail(_`${cxt.data}[${spec.list}] !== undefined && !${holds}(${cxt.data}, ${cxt.it.parentDataProperty})`);
  },
});

/** Characters as Ajv's maxLength counts them: code points, a surrogate pair being one. */
function codePoints(value: string): number {
  let count = value.length;
  for (let i = 0; i < value.length - 1; i++) {
    const unit = value.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && (value.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      count--;
      i++;
    }
  }
  return count;
}

/**
 * `x-max-length: n`: maxLength inline. A string no longer than n UTF-16 units has at most n
 * code points, so only a longer one is counted (Ajv's maxLength counts every string).
 */
firstError.addKeyword({
  keyword: 'x-max-length',
  type: 'string',
  schemaType: 'number',
  code: (cxt: KeywordCxt) => {
    const count = cxt.gen.scopeValue('keyword', { ref: codePoints });
    cxt.fail(_`${cxt.data}.length > ${cxt.schema} && ${count}(${cxt.data}) > ${cxt.schema}`);
  },
});

/** Whether a string holds no NUL and no unpaired surrogate (PLAIN_TEXT_PATTERN, by hand). */
function isPlainText(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const unit = value.charCodeAt(i);
    if (unit === 0) return false;
    if (unit >= 0xd800 && unit <= 0xdfff) {
      // A high half followed by a low half is one character; anything else is a lone half.
      if (unit > 0xdbff || (value.charCodeAt(i + 1) & 0xfc00) !== 0xdc00) return false;
      i++;
    }
  }
  return true;
}
/**
 * `x-plain-text`: PLAIN_TEXT_PATTERN in the quick pass, as a walk over the UTF-16 units:
 * measured on the item-inquiry buyer request, cheaper than Ajv's unicode regexp and than a
 * plain regexp screen before the walk. The full pass keeps the pattern, for its message.
 */
firstError.addKeyword({
  keyword: 'x-plain-text',
  type: 'string',
  schemaType: 'boolean',
  code: (cxt: KeywordCxt) => {
    const plain = cxt.gen.scopeValue('keyword', { ref: isPlainText });
    cxt.fail(_`!${plain}(${cxt.data})`);
  },
});

type SchemaNode = Record<string, unknown>;

/** Copies a schema, letting `visit` change every object node of the copy (children first). */
function rewrite(schema: unknown, at: string, visit: (node: SchemaNode, at: string) => void): unknown {
  if (Array.isArray(schema)) return schema.map((s, i) => rewrite(s, `${at}/${i}`, visit));
  if (schema === null || typeof schema !== 'object') return schema;
  const copy: SchemaNode = {};
  for (const [key, value] of Object.entries(schema)) copy[key] = rewrite(value, `${at}/${key}`, visit);
  visit(copy, at);
  return copy;
}

/**
 * Open objects (seller replies) accept extra fields. To report the extras as notes in the
 * same pass as the errors, the full pass compiles a copy in which every open object is
 * closed, and remembers where those objects are: an `additionalProperties` error there is
 * a note, not an error.
 */
function closeForFullPass(schema: TSchema, openAt: Set<string>): object {
  return rewrite(schema, '#', (node, at) => {
    if (node.type !== 'object' || node.additionalProperties !== true) return;
    node.additionalProperties = false;
    openAt.add(`${at}/additionalProperties`);
  }) as object;
}

/**
 * Formatted string fields of the objects listed under `node.properties[list]`, their formats
 * taken out of the (copied) entry schema; undefined when that property is not such a list.
 */
function takeListFormats(node: SchemaNode, list: string): Record<string, FormatName> | undefined {
  const listSchema = (node.properties as Record<string, SchemaNode>)[list];
  const entry = listSchema.type === 'array' ? (listSchema.items as SchemaNode | undefined) : undefined;
  if (entry?.type !== 'object' || typeof entry.properties !== 'object' || entry.properties === null) return undefined;
  const fields: Record<string, FormatName> = {};
  for (const [name, field] of Object.entries(entry.properties as Record<string, SchemaNode>)) {
    if (field.type === 'string' && typeof field.format === 'string' && field.format in FORMATS) {
      fields[name] = field.format as FormatName;
      delete field.format;
    }
  }
  return Object.keys(fields).length > 0 ? fields : undefined;
}

/**
 * The quick pass: every object closed by `x-known-properties` (so extras fail it too), and
 * the formats in lists of objects (a location's route times) memoised.
 */
function prepareQuickPass(schema: TSchema): object {
  return rewrite(schema, '#', (node) => {
    if (node.type === 'object' && typeof node.properties === 'object' && node.properties !== null) {
      for (const list of Object.keys(node.properties)) {
        const fields = takeListFormats(node, list);
        if (fields === undefined) continue;
        node['x-memo-formats'] = { list, fields } satisfies FormatMemoSpec;
        break; // one memoised list per object (a location has one: route_times); others keep their formats
      }
    }
    if (node.type === 'object' && typeof node.additionalProperties === 'boolean') {
      const required = (node.required as string[] | undefined) ?? [];
      const names = Object.keys((node.properties as object | undefined) ?? {});
      delete node.additionalProperties;
      node['x-known-properties'] = { required: required.length, optional: names.filter((n) => !required.includes(n)) };
    }
    if (node.type === 'string' && node.minLength === 1) {
      delete node.minLength;
      node['x-non-empty'] = true;
    }
    if (node.type === 'string' && node.pattern === PLAIN_TEXT_PATTERN) {
      delete node.pattern;
      node['x-plain-text'] = true;
    }
    if (node.type === 'string' && typeof node.maxLength === 'number') {
      node['x-max-length'] = node.maxLength;
      delete node.maxLength;
    }
  }) as object;
}

/** Patterns explained in words; others are quoted as written. */
const PATTERN_HINTS: Record<string, string> = {
  [PLAIN_TEXT_PATTERN]: 'must not contain NUL (U+0000) or an unpaired surrogate (U+D800–U+DFFF)',
  [SEARCH_QUERY_PATTERN]: 'must contain something other than white space, and no NUL (U+0000) or unpaired surrogate',
};

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
      // A number refused by its type is Infinity (strictNumbers): the buyer sent e.g. 1e400.
      if (typeof error.data === 'number' && !Number.isFinite(error.data))
        return { keyword, path: instancePath, message: `must be a finite ${params.type}` };
      return {
        keyword,
        path: instancePath,
        message: `must be ${/^[aeiou]/.test(params.type) ? 'an' : 'a'} ${params.type}`,
      };
    case 'minLength':
      return {
        keyword,
        path: instancePath,
        message: params.limit === 1 ? 'must not be empty' : `must have at least ${params.limit} characters`,
      };
    case 'maxLength':
      return { keyword, path: instancePath, message: `must have at most ${params.limit} characters` };
    case 'pattern':
      return {
        keyword,
        path: instancePath,
        message: PATTERN_HINTS[params.pattern as string] ?? `must match the pattern ${params.pattern}`,
      };
    case 'minItems':
      return {
        keyword,
        path: instancePath,
        message: `must have at least ${params.limit} item${params.limit === 1 ? '' : 's'}`,
      };
    case 'minimum':
    case 'exclusiveMinimum':
    case 'maximum':
    case 'exclusiveMaximum':
      return { keyword, path: instancePath, message: `must be ${params.comparison} ${params.limit}` };
    default:
      return { keyword, path: instancePath, message: error.message ?? keyword };
  }
}

/**
 * The validator of `schema`, compiled when first called: compiling every schema at import
 * cost about a second before a CLI could even print its --help.
 */
export function compileValidator<T extends TSchema>(schema: T): Validator<Static<T>> {
  let compiled: Validator<Static<T>> | undefined;
  const get = () => (compiled ??= compileNow(schema));
  const validate = ((data: unknown) => get()(data)) as Validator<Static<T>>;
  (validate as { is: unknown }).is = (data: unknown): data is Static<T> => get().is(data);
  (validate as { schema: unknown }).schema = schema;
  return validate;
}

function compileNow<T extends TSchema>(schema: T): Validator<Static<T>> {
  const openAt = new Set<string>();
  memosOfCompile = [];
  const quickPass: ValidateFunction = firstError.compile(prepareQuickPass(schema));
  const memos = memosOfCompile;
  const quick =
    memos.length === 0
      ? quickPass
      : (data: unknown): boolean => {
          for (const memo of memos) memo.forget();
          return quickPass(data) as boolean;
        };
  const check: ValidateFunction = allErrors.compile(closeForFullPass(schema, openAt));

  const validate = ((data: unknown): ValidationResult => {
    if (quick(data)) return { valid: true, errors: [], notes: [] };
    check(data);
    const errors: ValidationIssue[] = [];
    const notes: ValidationIssue[] = [];
    const found = check.errors ?? [];
    // A value of the wrong type also fails its enum, minimum…: say only what is wrong first.
    const wrongType = new Set(found.filter((e) => e.keyword === 'type').map((e) => e.instancePath));
    for (const error of found) {
      if (error.keyword !== 'type' && wrongType.has(error.instancePath)) continue;
      const issue = describe(error);
      if (error.keyword === 'additionalProperties' && openAt.has(error.schemaPath)) notes.push(issue);
      else errors.push(issue);
    }
    return { valid: errors.length === 0, errors, notes };
  }) as Validator<Static<T>>;

  // Closed schemas (requests) need no second look; open ones may have failed only on extras.
  (validate as { is: unknown }).is =
    openAt.size === 0
      ? (data: unknown): data is Static<T> => quick(data)
      : (data: unknown): data is Static<T> => quick(data) || validate(data).valid;
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

/** Every payload's validator, each compiled once, when first used. */
export const validators = Object.fromEntries(
  Object.entries(PAYLOADS).map(([operation, roles]) => [
    operation,
    Object.fromEntries(Object.entries(roles).map(([role, schema]) => [role, compileValidator(schema)])),
  ]),
) as unknown as CompiledPayloads;

/** Compiles every payload's validator now: a long-lived server calls it at start, so no buyer's request pays for it. */
export function compileAllValidators(): void {
  for (const roles of Object.values(validators) as Record<string, Validator<unknown>>[])
    for (const validate of Object.values(roles)) validate.is(undefined);
}
