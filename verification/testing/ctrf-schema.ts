import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { packagePath } from '../../shared/package-root';

// CTRF's published JSON Schema (fixtures/ctrf/, spec 0.0.0, from the reference implementation's
// package) as a test's check: the kit's --ctrf output is what CTRF dashboards accept.

const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
const validate = ajv.compile(
  JSON.parse(readFileSync(packagePath('fixtures/ctrf/ctrf-schema-0.0.json'), 'utf8')) as object,
);

/** The schema's errors for a parsed document; [] when it is valid. */
export function ctrfSchemaErrors(document: unknown): string[] {
  return validate(document) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`);
}
