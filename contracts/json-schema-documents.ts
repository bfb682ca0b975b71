import type { TSchema } from '@sinclair/typebox';
import { PAYLOADS, Scenario } from './schemas/index';
import { CONTRACT_VERSION } from './contract-version';

// The JSON Schema documents seller vendors use without TypeScript, one per payload,
// rendered from the TypeBox schemas (never written by hand). `npm run schemas` writes
// them to contracts/json-schema/; a test fails when the committed files are stale.

export const JSON_SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';
export const JSON_SCHEMA_BASE_ID = 'https://federated-gateway.example/contracts/json-schema/';

/**
 * Our own formats, which a vendor's validator does not know (Ajv even refuses unknown
 * formats by default): rendered as a pattern for the layout, the rest said in $comment.
 * `date` and `email` are standard formats and stay.
 */
const CUSTOM_FORMATS: Record<string, { pattern: string; comment: string }> = {
  'route-time': {
    pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}$',
    comment: 'YYYY-MM-DD HH:MM:SS on a day that exists on the calendar, hours 00-23',
  },
  'country-code': { pattern: '^[A-Z]{2}$', comment: 'an assigned ISO 3166-1 alpha-2 country code' },
};

// Keywords first in this order, the rest alphabetically; `properties` keeps the
// specification's field order. Same input, same bytes.
const KEYWORD_ORDER = [
  '$schema',
  '$id',
  'title',
  'description',
  '$comment',
  'type',
  'const',
  'enum',
  'format',
  'pattern',
  'properties',
  'required',
  'additionalProperties',
  'items',
];

function render(node: unknown, inProperties = false): unknown {
  if (Array.isArray(node)) return node.map((n) => render(n));
  if (node === null || typeof node !== 'object') return node;
  const source = { ...(node as Record<string, unknown>) };
  const custom = !inProperties && typeof source.format === 'string' ? CUSTOM_FORMATS[source.format] : undefined;
  if (custom) {
    delete source.format;
    source.pattern = custom.pattern;
    source.$comment = custom.comment;
  }
  const keys = Object.keys(source); // symbols (TypeBox's Kind, Optional…) are left behind here
  const ordered = inProperties
    ? keys
    : [...KEYWORD_ORDER.filter((k) => k in source), ...keys.filter((k) => !KEYWORD_ORDER.includes(k)).sort()];
  const out: Record<string, unknown> = {};
  for (const key of ordered) {
    const value = source[key];
    if (value === undefined) continue;
    // Under `properties` (and other name → schema maps) the keys are field names, not keywords.
    out[key] = render(value, !inProperties && (key === 'properties' || key === 'patternProperties' || key === '$defs'));
  }
  return out;
}

export function jsonSchemaFileName(operation: string, payload: string): string {
  return `${operation}.${payload}.schema.json`;
}

/**
 * The contract version each document states. `$comment` because it is the standard keyword for
 * notes that every validator ignores; an `x-contract-version` would be refused by Ajv's default
 * strict mode, the validator most vendors on Node reach for.
 */
export const contractVersionComment = (version: string = CONTRACT_VERSION): string =>
  `Federated Gateway contract ${version}`;

export function renderJsonSchema(operation: string, payload: string, schema: TSchema): string {
  return renderJsonSchemaFile(jsonSchemaFileName(operation, payload), schema);
}

/** The document of `schema` published as contracts/json-schema/`fileName` (its `$id`). */
export function renderJsonSchemaFile(fileName: string, schema: TSchema): string {
  const own = typeof schema.$comment === 'string' ? ` — ${schema.$comment}` : '';
  const document = render({
    $schema: JSON_SCHEMA_DIALECT,
    $id: `${JSON_SCHEMA_BASE_ID}${fileName}`,
    ...schema,
    $comment: `${contractVersionComment()}${own}`,
  });
  return `${JSON.stringify(document, null, 2)}\n`;
}

/**
 * Documents that are not payloads: the mock seller's scenario file, so a scenario can name
 * its schema (`"$schema"`) and editors complete and check it.
 */
export const OTHER_DOCUMENTS = [
  { operation: 'mock-seller', payload: 'scenario', schema: Scenario as TSchema },
] as const;

/** Every payload's document, then the other documents, by file name. */
export function renderJsonSchemas(): Map<string, string> {
  const files = new Map<string, string>();
  for (const [operation, roles] of Object.entries(PAYLOADS)) {
    for (const [payload, schema] of Object.entries(roles)) {
      files.set(jsonSchemaFileName(operation, payload), renderJsonSchema(operation, payload, schema as TSchema));
    }
  }
  for (const { operation, payload, schema } of OTHER_DOCUMENTS)
    files.set(jsonSchemaFileName(operation, payload), renderJsonSchema(operation, payload, schema));
  return files;
}
