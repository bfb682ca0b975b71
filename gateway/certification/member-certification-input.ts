import { readFileSync } from 'node:fs';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { packagePath } from '../../shared/package-root';
import type { Detail } from '../errors';
import { CertificationInputRejected } from './certification-errors';

// What a member must hold before a certification is queued: a state map that is one (the
// contract's published state-map schema, contracts/json-schema/state-map.schema.json, the same
// schema the kit's loader is built from) and, when it declares load SLOs, a list of them. A job
// that could only end in "the kit refused the input" is refused here instead, naming the field.

const STATE_MAP_SCHEMA = packagePath('contracts', 'json-schema', 'state-map.schema.json');
// An SLO as the kit's --slo takes it: metric, comparison, number and optional unit (p95<300ms).
const SLO = /^\s*[a-z0-9()]+\s*(<=|>=|==|=|<|>)\s*\d+(\.\d+)?(ms|s|%|\/s)?\s*$/i;
const MAX_SLOS = 20;
const MAX_DETAILS = 10;

let validator: ValidateFunction | undefined;
function stateMapValidator(): ValidateFunction {
  // Formats (the date ranges' YYYY-MM-DD) are left to the kit: the shape and the names are what matter here.
  validator ??= new Ajv2020({ allErrors: true, strict: false, validateFormats: false }).compile(
    JSON.parse(readFileSync(STATE_MAP_SCHEMA, 'utf8')) as object,
  );
  return validator;
}

const detailOf = (e: ErrorObject): Detail => {
  const extra =
    e.keyword === 'additionalProperties'
      ? ` (${String((e.params as { additionalProperty?: unknown }).additionalProperty)})`
      : e.keyword === 'not'
        ? ' (a placeholder of the template left in)'
        : '';
  return {
    path: `/state_map${e.instancePath}`,
    message: `${e.message ?? 'is invalid'}${extra}`,
    rule: 'state-map.schema',
  };
};

/** Refuses (422) a member whose stored state map is missing or no state map; returns nothing when fine. */
export function checkStateMap(stateMap: unknown): void {
  if (stateMap === null || stateMap === undefined)
    throw new CertificationInputRejected(
      'state_map is required: the member has no state map to certify with (the kit runs the contract against the values it gives)',
      [{ path: '/state_map', message: 'required', rule: 'certification.state-map-required' }],
    );
  const validate = stateMapValidator();
  if (validate(stateMap)) return;
  const details = (validate.errors ?? []).slice(0, MAX_DETAILS).map(detailOf);
  throw new CertificationInputRejected(
    `state_map does not match the state-map schema: ${details.map((d) => `${d.path} ${d.message}`).join('; ')}`,
    details,
  );
}

/** The member's load SLOs as a list, null when none are declared; refuses (422) what is not a list of SLOs. */
export function checkSlos(slos: unknown): string[] | null {
  if (slos === null || slos === undefined) return null;
  const refuse = (message: string, path = '/slos'): never => {
    throw new CertificationInputRejected(`slos ${message}`, [{ path, message, rule: 'certification.slos' }]);
  };
  if (!Array.isArray(slos)) return refuse("must be a list of SLOs such as ['p95<300ms', 'errors<0.1%']");
  if (slos.length === 0) return refuse('must name at least one SLO, or be absent (then no load run is made)');
  if (slos.length > MAX_SLOS) return refuse(`must have at most ${MAX_SLOS} entries`);
  slos.forEach((slo, i) => {
    if (typeof slo !== 'string' || !SLO.test(slo))
      refuse(`entry ${i} is not metric<value (e.g. p95<300ms, errors<0.1%, timeouts=0)`, `/slos/${i}`);
  });
  return slos as string[];
}
