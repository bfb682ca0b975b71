import { readFile } from 'node:fs/promises';
import { compileValidator } from '../../contracts/validator';
import { jsonSyntaxErrorAt } from '../../shared/json-syntax-error';

export { jsonSyntaxErrorOffset } from '../../shared/json-syntax-error';
import { paramType, PROVIDER_STATE_CATALOGUE, STATE_NAMES, type StateName } from '../../contracts/pact/provider-states';
import {
  ALL_PARAMS,
  CATALOGUE,
  PLACEHOLDER,
  STATE_MAP_SCHEMA_FILE,
  StateMapFile,
} from '../../contracts/state-map-schema';

export { renderStateMapJsonSchema, STATE_MAP_SCHEMA_FILE, StateMapFile } from '../../contracts/state-map-schema';

// A vendor's state map: for each provider state, the values from the vendor's own
// catalogue that the kit injects into the contract's requests. For vendors who cannot
// implement a provider-state callback; their data must already be in place.
//
// One TypeBox schema (contracts/state-map-schema.ts), built from the provider-state catalogue,
// is both what the loader checks and what `npm run schemas` publishes
// (contracts/json-schema/state-map.schema.json), so an editor completes the state and parameter
// names and refuses what the loader would refuse.
// The loader says the catalogue's problems in its own words, and every problem at once.

export class StateMapError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StateMapError';
  }
}

const validate = compileValidator(StateMapFile);
const STATE_LIST = STATE_NAMES.map((name) => `'${name}'`).join(', ');

type Segment = string | number;
const pointerOf = (segments: Segment[]) =>
  segments.map((s) => `/${String(s).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
/** `states["part exists"].mfr_code`: the path as a reader of the file writes it. */
export const jsonPathOf = (segments: Segment[]): string =>
  segments
    .map((s, i) =>
      typeof s === 'number'
        ? `[${s}]`
        : /^[A-Za-z_$][\w$]*$/.test(s)
          ? `${i === 0 ? '' : '.'}${s}`
          : `[${JSON.stringify(s)}]`,
    )
    .join('');

/** Every string of `data` that is still a template placeholder, with where it is. */
function placeholders(data: unknown, at: Segment[] = [], found: { at: Segment[]; value: string }[] = []) {
  if (typeof data === 'string' && PLACEHOLDER.test(data)) found.push({ at, value: data });
  else if (Array.isArray(data)) data.forEach((item, i) => placeholders(item, [...at, i], found));
  else if (data !== null && typeof data === 'object')
    for (const [key, item] of Object.entries(data)) placeholders(item, [...at, key], found);
  return found;
}

const isObject = (data: unknown): data is Record<string, unknown> =>
  data !== null && typeof data === 'object' && !Array.isArray(data);

interface Problem {
  /** A JSON pointer: a shape error at or under it says the same thing again. */
  at: string;
  message: string;
}

/** What the catalogue says is wrong: lists per state, unknown states and parameters, placeholders left in. */
function catalogueProblems(data: unknown): Problem[] {
  if (!isObject(data)) return [];
  const problems: Problem[] = [];
  const states = isObject(data.states) ? data.states : {};
  for (const name of Object.keys(states).filter((state) => Array.isArray(states[state])))
    problems.push({
      at: pointerOf(['states', name]),
      message:
        `/states/${name}: one object of values per state, not a list — each interaction now has a single state; ` +
        `the several-parts inquiry has its own, 'two parts exist and a third is unknown' (second_* and unknown_* parameters)`,
    });
  for (const [state, entry] of Object.entries(states)) {
    const definition = CATALOGUE[state];
    if (!Object.hasOwn(CATALOGUE, state)) {
      problems.push({
        at: pointerOf(['states', state]),
        message: `/states/${state}: unknown state (known: ${STATE_LIST})`,
      });
      continue;
    }
    if (!isObject(entry)) continue;
    for (const [param, given] of Object.entries(entry)) {
      if (!Object.hasOwn(definition.params, param))
        problems.push({
          at: pointerOf(['states', state, param]),
          message: `/states/${state}/${param}: '${state}' has no parameter '${param}' (it has ${Object.keys(definition.params).join(', ')})`,
        });
      else problems.push(...valueProblems(['states', state, param], param, given));
    }
  }
  if (isObject(data.defaults))
    for (const [param, given] of Object.entries(data.defaults))
      if (!Object.hasOwn(ALL_PARAMS, param))
        problems.push({
          at: pointerOf(['defaults', param]),
          message: `/defaults/${param}: no state has a parameter '${param}' (usually the defaults are member, account, location_id)`,
        });
      else problems.push(...valueProblems(['defaults', param], param, given));
  if (Array.isArray(data.not_offered))
    data.not_offered.forEach((state, i) => {
      if (typeof state === 'string' && !Object.hasOwn(CATALOGUE, state))
        problems.push({
          at: pointerOf(['not_offered', i]),
          message: `/not_offered/${i}: unknown state '${state}' (known: ${STATE_LIST})`,
        });
    });
  for (const { at, value: left } of placeholders(data))
    problems.push({
      at: pointerOf(at),
      message: `${jsonPathOf(at)} ${PLACEHOLDER_LEFT} ${JSON.stringify(left)}`,
    });
  return problems;
}

/** What a value is, in a sentence's words: `the string "99999"`, `the number 3`, `empty`, `a list`. */
function givenText(given: unknown): string {
  if (given === '') return 'empty';
  if (typeof given === 'string') return `the string ${JSON.stringify(given)}`;
  if (typeof given === 'number') return `the number ${given}`;
  if (given === null || typeof given === 'boolean') return String(given);
  return Array.isArray(given) ? 'a list' : `a ${typeof given}`;
}

/**
 * A parameter's value has the type the contract's request has where it lands (a number for a
 * quantity, text for the rest): a "99999" would be forwarded as a string the contract does not
 * allow. Said with the path and the field, not as the schema's words.
 */
function valueProblems(at: Segment[], param: string, given: unknown): Problem[] {
  const { type, field } = paramType(param);
  const fits =
    type === 'number' ? typeof given === 'number' && Number.isFinite(given) : typeof given === 'string' && given !== '';
  if (fits) return [];
  const wanted = type === 'number' ? 'a number' : 'text';
  return [
    {
      at: pointerOf(at),
      message: `${jsonPathOf(at)} must be ${wanted} (the contract's ${field} is a ${type}), not ${givenText(given)}`,
    },
  ];
}

const PLACEHOLDER_LEFT = "is still the template's placeholder";

const covers = (problem: Problem, path: string) => path === problem.at || path.startsWith(`${problem.at}/`);

/** Every problem of `data` as a state map, each said once: the catalogue's in its words, then the shape's. */
export function stateMapProblems(data: unknown): string[] {
  const named = catalogueProblems(data);
  const shape = validate(data);
  const more = shape.errors
    .filter((e) => !named.some((p) => covers(p, e.path)))
    .map((e) => `${e.path || '/'} ${e.message}`);
  return [...new Set([...more, ...named.map((p) => p.message)])];
}

/** Checks shape, state and parameter names against the catalogue, and placeholders left in; every problem at once. */
export function checkStateMap(data: unknown, source = 'state map'): StateMapFile {
  const problems = stateMapProblems(data);
  if (problems.length === 0) return data as StateMapFile;
  const hint = problems.some((p) => p.includes(PLACEHOLDER_LEFT))
    ? `\n(replace every "<your …>" value with one from your own catalogue)`
    : '';
  if (problems.length === 1) throw new StateMapError(`${source}: ${problems[0]}${hint}`);
  throw new StateMapError(
    `${source}: ${problems.length} problems:\n${problems.map((p) => `  - ${p}`).join('\n')}${hint}`,
  );
}

export async function readStateMap(file: string): Promise<StateMapFile> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new StateMapError(`cannot read state map ${file}: ${(error as Error).message}`);
  }
  if (text.startsWith('\uFEFF')) text = text.slice(1); // a byte order mark some editors write
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    const at = jsonSyntaxErrorAt(text);
    const where = at === undefined ? '' : `${at}: `;
    throw new StateMapError(`state map ${file} is not JSON: ${where}${(error as Error).message}`);
  }
  return checkStateMap(data, file);
}

/** The values for `state`: its own entry over the defaults, limited to the state's parameters. */
export function valuesFor(map: StateMapFile, state: string): Record<string, string | number> {
  const definition = PROVIDER_STATE_CATALOGUE[state as StateName];
  const merged: Record<string, string | number> = {};
  for (const [param, value] of Object.entries({ ...map.defaults, ...map.states[state] })) {
    if (definition === undefined || param in definition.params) merged[param] = value;
  }
  return merged;
}

/** The installed toolkit's copy of the schema, from the folder the vendor installed it in. */
export const INSTALLED_SCHEMA_PATH = `./node_modules/@federated-gateway/toolkit/contracts/json-schema/${STATE_MAP_SCHEMA_FILE}`;

/** The template's defaults: the parameters nearly every state takes. */
const TEMPLATE_DEFAULTS = ['member', 'account', 'location_id'] as const;

/** Each parameter's placeholder; a state may say its own (what kind of related part, a part not carried). */
const PLACEHOLDERS: Record<string, string> = {
  member: '<your member id>',
  account: "<your buyer's account id>",
  location_id: '<your location id>',
  second_location_id: '<your second location id>',
  mfr_code: '<your manufacturer code>',
  part_number: '<your part number>',
  second_mfr_code: "<your second part's manufacturer code>",
  second_part_number: "<your second part's part number>",
  unknown_mfr_code: '<your manufacturer code>',
  unknown_part_number: '<your invented part number, not in your catalogue>',
  from_invoice_date: '<your first invoice date, YYYY-MM-DD>',
  to_invoice_date: '<your last invoice date, YYYY-MM-DD>',
  invoice_number: '<your invoice number>',
  po_number: '<your purchase order number>',
  from_statement_date: '<your first statement date, YYYY-MM-DD>',
  to_statement_date: '<your last statement date, YYYY-MM-DD>',
};
const RELATED: Partial<Record<string, string>> = {
  'part has alternate': 'alternate',
  'part has superseded': 'superseding part',
  'part has equivalent': 'equivalent',
};
const STATE_PLACEHOLDERS: Partial<Record<string, Record<string, string | number>>> = {
  'part is unknown': { part_number: PLACEHOLDERS.unknown_part_number },
  'order will fail': { part_number: PLACEHOLDERS.unknown_part_number, quantity: 1 },
  'order can be received': { quantity: 1 },
  'order will be backordered': { quantity: 99999 },
  'invoice has a downloadable copy': { invoice_number: '<your invoice number with a downloadable copy>' },
};

/** A parameter's placeholder in the template: a number for numbers, "<your …>" for the rest. */
function placeholderFor(state: string, param: string): string | number {
  const own = STATE_PLACEHOLDERS[state]?.[param];
  if (own !== undefined) return own;
  const related = RELATED[state];
  if (related !== undefined && param === 'related_mfr_code') return `<your ${related}'s manufacturer code>`;
  if (related !== undefined && param === 'related_part_number') return `<your ${related}'s part number>`;
  const description = CATALOGUE[state].params[param];
  if (description.includes('(a number)')) return 1;
  return (
    PLACEHOLDERS[param] ?? `<your ${description.replace(/^Optional: /, '').replace(/^./, (c) => c.toLowerCase())}>`
  );
}

/**
 * `federated-gateway states --template`: a state map with every provider state of the catalogue,
 * each parameter it takes (bar the defaults') holding a placeholder the loader refuses until replaced.
 */
export function stateMapTemplate(): StateMapFile {
  const defaults = Object.fromEntries(TEMPLATE_DEFAULTS.map((param) => [param, PLACEHOLDERS[param]]));
  const states = Object.fromEntries(
    STATE_NAMES.map((state) => [
      state,
      Object.fromEntries(
        Object.keys(CATALOGUE[state].params)
          .filter((param) => !(TEMPLATE_DEFAULTS as readonly string[]).includes(param))
          .map((param) => [param, placeholderFor(state, param)]),
      ),
    ]),
  );
  return {
    $schema: INSTALLED_SCHEMA_PATH,
    $comment:
      'From `federated-gateway states --template`. Replace every "<your …>" value with one from your own catalogue ' +
      '(verify refuses the map while one is left) and check the numbers (order will be backordered: more than you ' +
      'have). The defaults go to every state; a state may name its own member, account or location_id. An ' +
      'optional state your system does not offer (a downloadable invoice copy) is deleted here and named in ' +
      '"not_offered".',
    defaults,
    states,
  };
}
