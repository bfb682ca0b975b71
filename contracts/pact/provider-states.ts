// The provider-state catalogue: what a seller system must have set up before each
// interaction, and the parameters that name it. Request fields naming seller data are written
// `fromProviderState('${param}', example)`: a seller's state callback may answer with its own
// values, and any Pact verifier injects them.
//
// Written for every verifier, not only ours: a standard verifier (pact-jvm, pact-net, the Rust
// `pact verifier`) merges the values all state callbacks of an interaction return into ONE
// map. So each interaction has exactly one state, and a state's parameters name every value
// the interaction needs (`second_part_number`, never a second `part_number`). Each setup is
// absolute: it makes the state true whatever ran before, with or without teardown calls.

export interface CatalogueState {
  /** What the seller must have, in a vendor's words. */
  setup: string;
  /** Each parameter and what it names. */
  params: Record<string, string>;
}

const member = 'Member ID in the member network (the gateway forwards it)';
const account = 'Account ID of the buyer in the member system';
const mfr_code = 'Manufacturer code';
const part_number = 'Part number';
const location_id = 'A location of the member that carries the part';
const quantity = 'Quantity ordered (a number)';

export const PROVIDER_STATE_CATALOGUE = {
  'part exists': {
    setup:
      'The part is in the catalogue with stock above zero at location_id and at second_location_id; it has no alternate, superseded or equivalent parts. Route times are not needed.',
    params: {
      member,
      account,
      mfr_code,
      part_number,
      location_id,
      second_location_id: 'A second location of the member that carries the part',
    },
  },
  'part has route times': {
    setup:
      'The part is in the catalogue with stock above zero at location_id, which has at least one route (cutoff, arrival and pickup times and a route code); no related parts.',
    params: { member, account, mfr_code, part_number, location_id },
  },
  'part is unknown': {
    setup: 'No part with this manufacturer code and part number is in the catalogue (item status 0).',
    params: {
      member,
      account,
      mfr_code,
      part_number: 'A part number not in the catalogue',
      location_id: 'A location of the member',
    },
  },
  'part has alternate': {
    setup:
      'The part is stocked at location_id and has exactly one related part, an alternate (item status 2), also stocked there.',
    params: {
      member,
      account,
      mfr_code,
      part_number,
      related_mfr_code: 'Manufacturer code of the alternate',
      related_part_number: 'Part number of the alternate',
      location_id,
    },
  },
  'part has superseded': {
    setup:
      'The part is in the catalogue (stocked or not: its own entry may answer status 1 or 0) and has exactly one related part, the part superseding it (item status 3), stocked at location_id.',
    params: {
      member,
      account,
      mfr_code,
      part_number,
      related_mfr_code: 'Manufacturer code of the superseding part',
      related_part_number: 'Part number of the superseding part',
      location_id,
    },
  },
  'part has equivalent': {
    setup:
      'The part is stocked at location_id and has exactly one related part, an equivalent (item status 4), also stocked there.',
    params: {
      member,
      account,
      mfr_code,
      part_number,
      related_mfr_code: 'Manufacturer code of the equivalent',
      related_part_number: 'Part number of the equivalent',
      location_id,
    },
  },
  'two parts exist and a third is unknown': {
    setup:
      'Two parts (mfr_code/part_number and second_mfr_code/second_part_number) are stocked at location_id without related parts; no part unknown_mfr_code/unknown_part_number is in the catalogue.',
    params: {
      member,
      account,
      location_id,
      mfr_code: 'Manufacturer code of the first part',
      part_number: 'Part number of the first part',
      second_mfr_code: 'Manufacturer code of the second part',
      second_part_number: 'Part number of the second part',
      unknown_mfr_code: 'Manufacturer code of the part not in the catalogue',
      unknown_part_number: 'A part number not in the catalogue',
    },
  },
  'order can be received': {
    setup:
      'The part is stocked at location_id with at least `quantity` available and the account may order: the order line is received (status 1).',
    params: { member, account, mfr_code, part_number, location_id, quantity },
  },
  'order will be backordered': {
    setup:
      'The part is in the catalogue but location_id has less than `quantity` available: the order line is backordered (status 2).',
    params: { member, account, mfr_code, part_number, location_id, quantity },
  },
  'order will fail': {
    setup: 'The part is not in the catalogue: the order line fails (status 0).',
    params: {
      member,
      account,
      mfr_code,
      part_number: 'A part number not in the catalogue',
      location_id: 'A location of the member',
      quantity,
    },
  },
  'account has invoices': {
    setup:
      'The account has at least one invoice matching the given filter (a date range, an invoice number or ' +
      'a PO number), each with at least one detail line. A downloadable copy (link_url) is not needed.',
    params: {
      member,
      account,
      from_invoice_date: 'Optional: start of the range, YYYY-MM-DD',
      to_invoice_date: 'Optional: end of the range, YYYY-MM-DD',
      invoice_number: 'Optional: an invoice number of the account',
      po_number: 'Optional: a purchase order number with an invoice',
    },
  },
  'invoice has a downloadable copy': {
    setup:
      'The account has the invoice invoice_number, with at least one detail line and a link_url pointing to a downloadable copy.',
    params: { member, account, invoice_number: 'An invoice number of the account' },
  },
  'account has statements': {
    setup:
      'The account has at least one statement dated within the range, each with at least one detail line (only its invoice_date is needed).',
    params: {
      member,
      account,
      from_statement_date: 'Start of the range, YYYY-MM-DD',
      to_statement_date: 'End of the range, YYYY-MM-DD',
    },
  },
} as const satisfies Record<string, CatalogueState>;

export type StateName = keyof typeof PROVIDER_STATE_CATALOGUE;
export type StateParams<S extends StateName> = Partial<
  Record<keyof (typeof PROVIDER_STATE_CATALOGUE)[S]['params'], string | number>
>;
export const STATE_NAMES = Object.keys(PROVIDER_STATE_CATALOGUE) as StateName[];

/** What a parameter is in the request it lands in: its JSON type there, and the contract's field. */
export interface ParamType {
  type: 'string' | 'number';
  field: string;
}

/** The parameters the requests carry as numbers, and the field each lands in; every other one is text. */
const NUMBER_PARAMS: Record<string, string> = { quantity: 'quantity_ordered' };
/** Text parameters whose field is not their own name less a second_/unknown_/related_ prefix. */
const TEXT_FIELDS: Record<string, string> = { location_id: 'locations[].id', second_location_id: 'locations[].id' };

/** A parameter's type and field, as the pact's requests have them (provider-states.test.ts holds them to the pact). */
export function paramType(param: string): ParamType {
  const number = NUMBER_PARAMS[param];
  if (number !== undefined) return { type: 'number', field: number };
  return { type: 'string', field: TEXT_FIELDS[param] ?? param.replace(/^(second|unknown|related)_/, '') };
}
