// The provider-state catalogue: what a seller system must have set up before each
// interaction. Names and parameters are those the mock seller's /__admin/provider-state
// understands (mock-seller/provider-states.ts), so one catalogue serves our mock and every
// vendor. Request fields naming seller data are written `fromProviderState('${param}')`: a
// seller may answer the state callback with its own values and Pact injects them.
//
// Several states in one interaction (e.g. two `part exists`) would name the same
// parameters; the expression for the n-th state of an interaction (n ≥ 2) therefore carries
// the suffix `_n` (`${part_number_2}`), and the verification kit suffixes injected values
// the same way (contracts/verification/state-handlers.ts).

export interface StateDefinition {
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

export const PROVIDER_STATES = {
  'part exists': {
    setup: 'The part is in the catalogue with stock above zero at location_id (and second_location_id when given), both locations with route times; it has no alternate, superseded or equivalent parts.',
    params: { member, account, mfr_code, part_number, location_id, second_location_id: 'Optional: a second location carrying the part' },
  },
  'part is unknown': {
    setup: 'No part with this manufacturer code and part number is in the catalogue (item status 0).',
    params: { member, account, mfr_code, part_number: 'A part number not in the catalogue', location_id: 'A location of the member' },
  },
  'part has alternate': {
    setup: 'The part is stocked at location_id and has exactly one related part, an alternate (item status 2), also stocked there.',
    params: { member, account, mfr_code, part_number, related_mfr_code: 'Manufacturer code of the alternate', related_part_number: 'Part number of the alternate', location_id },
  },
  'part has superseded': {
    setup: 'The part is stocked at location_id and has exactly one related part, the part superseding it (item status 3), also stocked there.',
    params: { member, account, mfr_code, part_number, related_mfr_code: 'Manufacturer code of the superseding part', related_part_number: 'Part number of the superseding part', location_id },
  },
  'part has equivalent': {
    setup: 'The part is stocked at location_id and has exactly one related part, an equivalent (item status 4), also stocked there.',
    params: { member, account, mfr_code, part_number, related_mfr_code: 'Manufacturer code of the equivalent', related_part_number: 'Part number of the equivalent', location_id },
  },
  'order can be received': {
    setup: 'The part is stocked at location_id with at least `quantity` available and the account may order: the order line is received (status 1).',
    params: { member, account, mfr_code, part_number, location_id, quantity: 'Quantity ordered (a number)' },
  },
  'order will be backordered': {
    setup: 'The part is in the catalogue but location_id has less than `quantity` available: the order line is backordered (status 2).',
    params: { member, account, mfr_code, part_number, location_id, quantity: 'Quantity ordered (a number)' },
  },
  'order will fail': {
    setup: 'The part is not in the catalogue: the order line fails (status 0).',
    params: { member, account, mfr_code, part_number: 'A part number not in the catalogue', location_id: 'A location of the member', quantity: 'Quantity ordered (a number)' },
  },
  'account has invoices': {
    setup: 'The account has invoices matching the given filters (a date range, an invoice number or a PO number), each with at least one detail line and a link_url to a downloadable copy.',
    params: {
      member,
      account,
      from_invoice_date: 'Optional: start of the range, YYYY-MM-DD',
      to_invoice_date: 'Optional: end of the range, YYYY-MM-DD',
      invoice_number: 'Optional: an invoice number of the account',
      po_number: 'Optional: a purchase order number with an invoice',
    },
  },
  'account has statements': {
    setup: 'The account has at least one statement dated within the range, each with at least one detail line.',
    params: { member, account, from_statement_date: 'Start of the range, YYYY-MM-DD', to_statement_date: 'End of the range, YYYY-MM-DD' },
  },
} as const satisfies Record<string, StateDefinition>;

export type StateName = keyof typeof PROVIDER_STATES;
export type StateParams<S extends StateName> = Partial<Record<keyof (typeof PROVIDER_STATES)[S]['params'], string | number>>;
export const STATE_NAMES = Object.keys(PROVIDER_STATES) as StateName[];

/** The injection expression name of `param` for the state at `position` (1-based) of an interaction. */
export const injectionKey = (param: string, position: number): string => (position <= 1 ? param : `${param}_${position}`);
