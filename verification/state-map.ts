import { readFile } from 'node:fs/promises';
import { Type, type Static } from '@sinclair/typebox';
import { compileValidator } from '../contracts/validator';
import { PROVIDER_STATE_CATALOGUE, type StateName } from '../contracts/pact/provider-states';

// A vendor's state map: for each provider state, the values from the vendor's own
// catalogue that the kit injects into the contract's requests. For vendors who cannot
// implement a provider-state callback; their data must already be in place.

const Value = Type.Union([Type.String({ minLength: 1 }), Type.Number()]);
const Values = Type.Record(Type.String({ minLength: 1 }), Value, { description: 'Parameter name → the vendor value' });

const Part = Type.Object(
  { mfr_code: Type.String({ minLength: 1 }), part_number: Type.String({ minLength: 1 }) },
  { additionalProperties: false },
);
const DateRange = Type.Object(
  { from: Type.String({ format: 'date' }), to: Type.String({ format: 'date' }) },
  { additionalProperties: false },
);

/** For `verify --explore`: more of the vendor's catalogue than the states name (see docs/seller-vendor-guide.md). */
export const ExploreCatalogue = Type.Object(
  {
    /** Locations the gateway may forward, each with the member and the buyer's account there. */
    locations: Type.Optional(
      Type.Array(
        Type.Object(
          {
            id: Type.String({ minLength: 1 }),
            member: Type.String({ minLength: 1 }),
            account: Type.String({ minLength: 1 }),
          },
          { additionalProperties: false },
        ),
      ),
    ),
    /** Parts the seller carries, optionally with their alternate / superseded / equivalent parts. */
    parts: Type.Optional(
      Type.Array(
        Type.Object(
          {
            mfr_code: Type.String({ minLength: 1 }),
            part_number: Type.String({ minLength: 1 }),
            related: Type.Optional(
              Type.Array(
                Type.Object(
                  {
                    kind: Type.Union([
                      Type.Literal('alternate'),
                      Type.Literal('superseded'),
                      Type.Literal('equivalent'),
                    ]),
                    mfr_code: Type.String({ minLength: 1 }),
                    part_number: Type.String({ minLength: 1 }),
                  },
                  { additionalProperties: false },
                ),
              ),
            ),
          },
          { additionalProperties: false },
        ),
      ),
    ),
    /** Parts the seller does not have (item status 0, order line failure). */
    unknown_parts: Type.Optional(Type.Array(Part)),
    /** Location ids an order may name. */
    order_locations: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
    /** Accounts with invoices and statements, and values their filters may take. */
    accounts: Type.Optional(
      Type.Array(
        Type.Object(
          {
            member: Type.String({ minLength: 1 }),
            account: Type.String({ minLength: 1 }),
            invoice_numbers: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
            po_numbers: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
            part_numbers: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
            location_ids: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
            invoice_dates: Type.Optional(DateRange),
            statement_dates: Type.Optional(DateRange),
          },
          { additionalProperties: false },
        ),
      ),
    ),
  },
  { additionalProperties: false },
);
export type ExploreCatalogue = Static<typeof ExploreCatalogue>;

export const StateMapFile = Type.Object(
  {
    $comment: Type.Optional(Type.String()),
    /** Used for every state unless the state's own entry says otherwise (member, account, a location). */
    defaults: Type.Optional(Values),
    /** State name → the vendor's values for its parameters. */
    states: Type.Record(Type.String({ minLength: 1 }), Values),
    /**
     * States of optional interactions (marked so in the pact) the seller does not offer: reported NOT OFFERED, not run.
     */
    not_offered: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { uniqueItems: true })),
    /** `verify --explore` only: the catalogue requests are generated from, beyond what the states name. */
    explore: Type.Optional(ExploreCatalogue),
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
const STATE_LIST = Object.keys(PROVIDER_STATE_CATALOGUE)
  .map((name) => `'${name}'`)
  .join(', ');

/** Checks shape, state names and parameter names against the catalogue; every problem at once. */
export function checkStateMap(data: unknown, source = 'state map'): StateMapFile {
  const states = (data as { states?: unknown } | null)?.states;
  if (states !== null && typeof states === 'object') {
    const listed = Object.entries(states).filter(([, entry]) => Array.isArray(entry));
    if (listed.length > 0) {
      throw new StateMapError(
        `${source}: ${listed.map(([name]) => `/states/${name}: one object of values per state, not a list`).join('; ')} — each interaction now ` +
          `has a single state; the several-parts inquiry has its own, 'two parts exist and a third is unknown' (second_* and unknown_* parameters)`,
      );
    }
  }
  const shape = validate(data);
  if (!shape.valid)
    throw new StateMapError(`${source}: ${shape.errors.map((e) => `${e.path || '/'} ${e.message}`).join('; ')}`);
  const map = data as StateMapFile;
  const problems: string[] = [];
  for (const [state, entry] of Object.entries(map.states)) {
    const definition = PROVIDER_STATE_CATALOGUE[state as StateName];
    if (definition === undefined) {
      problems.push(`/states/${state}: unknown state (known: ${STATE_LIST})`);
      continue;
    }
    for (const param of Object.keys(entry)) {
      if (!(param in definition.params))
        problems.push(
          `/states/${state}/${param}: '${state}' has no parameter '${param}' (it has ${Object.keys(definition.params).join(', ')})`,
        );
    }
  }
  (map.not_offered ?? []).forEach((state, i) => {
    if (!(state in PROVIDER_STATE_CATALOGUE))
      problems.push(`/not_offered/${i}: unknown state '${state}' (known: ${STATE_LIST})`);
  });
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

/** The values for `state`: its own entry over the defaults, limited to the state's parameters. */
export function valuesFor(map: StateMapFile, state: string): Record<string, string | number> {
  const definition = PROVIDER_STATE_CATALOGUE[state as StateName];
  const merged: Record<string, string | number> = {};
  for (const [param, value] of Object.entries({ ...map.defaults, ...map.states[state] })) {
    if (definition === undefined || param in definition.params) merged[param] = value;
  }
  return merged;
}
