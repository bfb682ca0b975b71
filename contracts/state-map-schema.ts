import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { renderJsonSchemaFile } from './json-schema-documents';
import { paramType, PROVIDER_STATE_CATALOGUE, STATE_NAMES } from './pact/provider-states';

// The shape of a vendor's state map (for each provider state, the values from the vendor's own
// catalogue that the kit injects into the contract's requests), built from the provider-state
// catalogue. It lives in contracts/ because more than the kit reads it: the kit's loader checks
// it (verification/state-map.ts says its problems in the kit's words), `npm run schemas`
// publishes it (contracts/json-schema/state-map.schema.json), and the gateway refuses a member's
// state map that does not fit it when an operator stores one (the gateway may not import the kit).

/** The placeholders of `federated-gateway states --template`: "<your part number>" and the like. */
export const PLACEHOLDER = /^<your [^<>]*>$/;

/** Refuses a placeholder of the template left in a value (`not` a pattern: editors flag it too). */
const NOT_A_PLACEHOLDER = {
  not: { pattern: PLACEHOLDER.source, description: 'A placeholder of the template: replace it with your own value' },
};

/**
 * A vendor's value as text: not empty, and not a placeholder. Written out at each use rather than
 * under `$defs`: plain TypeBox kinds, which anything walking the schema (the reference page) reads.
 */
const vendorText = (description?: string) =>
  Type.String({ minLength: 1, ...NOT_A_PLACEHOLDER, ...(description === undefined ? {} : { description }) });

const textList = (description: string) => Type.Optional(Type.Array(vendorText(), { description }));

/** A parameter's value, of the type the request it lands in has there: a number (a quantity) or text. */
const value = (param: string, description: string) =>
  paramType(param).type === 'number' ? Type.Number({ description }) : vendorText(description);

const Part = Type.Object(
  { mfr_code: vendorText('Manufacturer code'), part_number: vendorText('Part number') },
  {
    additionalProperties: false,
  },
);
const DateRange = (description: string) =>
  Type.Object(
    {
      from: Type.String({ format: 'date', description: 'First day, YYYY-MM-DD' }),
      to: Type.String({ format: 'date', description: 'Last day, YYYY-MM-DD' }),
    },
    { additionalProperties: false, description },
  );

/** For `verify --explore`: more of the vendor's catalogue than the states name. */
export const ExploreCatalogue = Type.Object(
  {
    locations: Type.Optional(
      Type.Array(
        Type.Object(
          {
            id: vendorText('Location id'),
            member: vendorText('The member the location belongs to'),
            account: vendorText("The buyer's account at that member"),
          },
          { additionalProperties: false },
        ),
        { description: "Locations the gateway may forward, each with the member and the buyer's account there" },
      ),
    ),
    parts: Type.Optional(
      Type.Array(
        Type.Object(
          {
            mfr_code: vendorText('Manufacturer code'),
            part_number: vendorText('Part number'),
            related: Type.Optional(
              Type.Array(
                Type.Object(
                  {
                    kind: Type.Union(
                      [Type.Literal('alternate'), Type.Literal('superseded'), Type.Literal('equivalent')],
                      {
                        description: 'How it is related: alternate (item status 2), superseded (3) or equivalent (4)',
                      },
                    ),
                    mfr_code: vendorText('Manufacturer code of the related part'),
                    part_number: vendorText('Part number of the related part'),
                  },
                  { additionalProperties: false },
                ),
                { description: 'Its alternate, superseding and equivalent parts, as your system answers them' },
              ),
            ),
          },
          { additionalProperties: false },
        ),
        { description: 'Parts the seller carries, optionally with their alternate / superseded / equivalent parts' },
      ),
    ),
    unknown_parts: Type.Optional(
      Type.Array(Part, { description: 'Parts the seller does not have (item status 0, order line failure)' }),
    ),
    order_locations: textList('Location ids an order may name'),
    accounts: Type.Optional(
      Type.Array(
        Type.Object(
          {
            member: vendorText('Member id'),
            account: vendorText("The buyer's account id at the member"),
            invoice_numbers: textList('Invoice numbers of the account'),
            po_numbers: textList('Purchase order numbers with invoices'),
            part_numbers: textList('Part numbers on its invoices'),
            location_ids: textList('Locations its invoices name'),
            invoice_dates: Type.Optional(DateRange('A range with invoices')),
            statement_dates: Type.Optional(DateRange('A range with statements')),
          },
          { additionalProperties: false },
        ),
        { description: 'Accounts with invoices and statements, and values their filters may take' },
      ),
    ),
  },
  {
    additionalProperties: false,
    description: '`verify --explore` only: the catalogue requests are generated from, beyond what the states name',
  },
);
export type ExploreCatalogue = Static<typeof ExploreCatalogue>;

type Catalogue = Record<string, { setup: string; params: Record<string, string> }>;
export const CATALOGUE: Catalogue = PROVIDER_STATE_CATALOGUE;

/** Every parameter any state takes, with its first description: what `defaults` may name. */
export const ALL_PARAMS: Record<string, string> = {};
for (const state of Object.values(CATALOGUE))
  for (const [param, description] of Object.entries(state.params)) ALL_PARAMS[param] ??= description;

const stateSchema = (name: string): TSchema =>
  Type.Object(
    Object.fromEntries(
      Object.entries(CATALOGUE[name].params).map(([param, description]) => [
        param,
        Type.Optional(value(param, description)),
      ]),
    ),
    { additionalProperties: false, title: name, description: `Your system must have this: ${CATALOGUE[name].setup}` },
  );

const stateNames = (description: string) => Type.String({ minLength: 1, enum: STATE_NAMES, description });

/** The schema of a state map file; its JSON Schema is contracts/json-schema/state-map.schema.json. */
export const StateMapFile = Type.Object(
  {
    $schema: Type.Optional(
      Type.String({
        description:
          'The JSON Schema of this file, for your editor: ./node_modules/@federated-gateway/toolkit/contracts/json-schema/state-map.schema.json where the toolkit is installed',
      }),
    ),
    $comment: Type.Optional(Type.String({ description: 'A note for people; the kit ignores it' })),
    defaults: Type.Optional(
      Type.Object(
        Object.fromEntries(
          Object.entries(ALL_PARAMS).map(([param, description]) => [param, Type.Optional(value(param, description))]),
        ),
        {
          additionalProperties: false,
          description:
            "Used for every state that takes the parameter, unless the state's own entry says otherwise: usually member, account and location_id",
        },
      ),
    ),
    states: Type.Object(Object.fromEntries(STATE_NAMES.map((name) => [name, Type.Optional(stateSchema(name))])), {
      additionalProperties: false,
      description:
        "Provider state → your values for its parameters (one object per state). A parameter without a value here or in defaults would send the contract's example: verify refuses to start unless --allow-example-values",
    }),
    not_offered: Type.Optional(
      Type.Array(stateNames('A provider state'), {
        uniqueItems: true,
        description:
          'States of optional interactions (marked so in the pact) your system does not offer: reported NOT OFFERED, not run',
      }),
    ),
    explore: Type.Optional(ExploreCatalogue),
  },
  {
    additionalProperties: false,
    title: 'Federated Gateway verification kit — state map',
    description:
      'For each provider state of the contract, the values from your own catalogue that `federated-gateway verify` (and `states`) inject into the requests. Start from `npx federated-gateway states --template`.',
  },
);

/** The state map's JSON Schema in contracts/json-schema/ (`npm run schemas` writes it, the toolkit ships it). */
export const STATE_MAP_SCHEMA_FILE = 'state-map.schema.json';

/** The text of contracts/json-schema/state-map.schema.json, rendered from StateMapFile. */
export const renderStateMapJsonSchema = (): string => renderJsonSchemaFile(STATE_MAP_SCHEMA_FILE, StateMapFile);

/** A state map: what the loader returns, and what the kit's functions take as an object. */
export interface StateMapFile {
  /** The JSON Schema of the file, for editors; the kit ignores it. */
  $schema?: string;
  $comment?: string;
  /** Used for every state unless the state's own entry says otherwise (member, account, a location). */
  defaults?: Record<string, string | number>;
  /** State name → the vendor's values for its parameters. */
  states: Record<string, Record<string, string | number>>;
  /** States of optional interactions (marked so in the pact) the seller does not offer: NOT OFFERED, not run. */
  not_offered?: string[];
  /** `verify --explore` only: the catalogue requests are generated from, beyond what the states name. */
  explore?: ExploreCatalogue;
}
