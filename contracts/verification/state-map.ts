import { readFile } from 'node:fs/promises';
import { Type, type Static } from '@sinclair/typebox';
import { compileValidator } from '../validator';
import { PROVIDER_STATES, type StateName } from '../pact/provider-states';

// A vendor's state map: for each provider state, the values from the vendor's own
// catalogue that the kit injects into the contract's requests. For vendors who cannot
// implement a provider-state callback; their data must already be in place.

const Value = Type.Union([Type.String({ minLength: 1 }), Type.Number()]);
const Values = Type.Record(Type.String({ minLength: 1 }), Value, { description: 'Parameter name → the vendor value' });

export const StateMapFile = Type.Object(
  {
    $comment: Type.Optional(Type.String()),
    /** Used for every state unless the state's own entry says otherwise (member, account, a location). */
    defaults: Type.Optional(Values),
    /** State name → values, or a list of values: the n-th time a state occurs in one interaction uses the n-th entry. */
    states: Type.Record(Type.String({ minLength: 1 }), Type.Union([Values, Type.Array(Values, { minItems: 1 })])),
  },
  { additionalProperties: false, title: 'Verification kit — state map' },
);
export type StateMapFile = Static<typeof StateMapFile>;

export class StateMapError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StateMapError';
  }
}

const validate = compileValidator(StateMapFile);

/** Checks shape, state names and parameter names against the catalogue; every problem at once. */
export function checkStateMap(data: unknown, source = 'state map'): StateMapFile {
  const shape = validate(data);
  if (!shape.valid) throw new StateMapError(`${source}: ${shape.errors.map((e) => `${e.path || '/'} ${e.message}`).join('; ')}`);
  const map = data as StateMapFile;
  const problems: string[] = [];
  for (const [state, entry] of Object.entries(map.states)) {
    const definition = PROVIDER_STATES[state as StateName];
    if (definition === undefined) {
      problems.push(`/states/${state}: unknown state (known: ${Object.keys(PROVIDER_STATES).join(', ')})`);
      continue;
    }
    for (const values of Array.isArray(entry) ? entry : [entry]) {
      for (const param of Object.keys(values)) {
        if (!(param in definition.params)) problems.push(`/states/${state}/${param}: '${state}' has no parameter '${param}' (it has ${Object.keys(definition.params).join(', ')})`);
      }
    }
  }
  if (problems.length > 0) throw new StateMapError(`${source}: ${problems.join('; ')}`);
  return map;
}

export async function readStateMap(file: string): Promise<StateMapFile> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new StateMapError(`cannot read state map ${file}: ${(error as Error).message}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new StateMapError(`state map ${file} is not JSON: ${(error as Error).message}`);
  }
  return checkStateMap(data, file);
}

/** The values for the `occurrence`-th (1-based) use of `state` in one interaction, limited to the state's parameters. */
export function valuesFor(map: StateMapFile, state: string, occurrence: number): Record<string, string | number> {
  const definition = PROVIDER_STATES[state as StateName];
  const entry = map.states[state];
  const own = entry === undefined ? {} : Array.isArray(entry) ? (entry[occurrence - 1] ?? entry[entry.length - 1]) : entry;
  const merged: Record<string, string | number> = {};
  for (const [param, value] of Object.entries({ ...map.defaults, ...own })) {
    if (definition === undefined || param in definition.params) merged[param] = value;
  }
  return merged;
}
