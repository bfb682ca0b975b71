// The provider-state catalogue: what a seller system must have set up before each
// interaction. State names are fixed strings; parameters carry the data (the contract's
// example values). Request fields that name seller data use `fromProviderState('${param}')`
// with the same parameter names, so a seller may answer a state callback with its own
// values (its part numbers, locations, account) and Pact injects them into the request.

export interface StateDefinition {
  /** What the seller must have, in a vendor's words. */
  setup: string;
  /** Each parameter and what it names. */
  params: Record<string, string>;
}

const member = 'Member ID in the member network (the gateway forwards it)';
const account = 'Account ID in the member system';

export const PROVIDER_STATES = {
  'a part is stocked at two locations': {
    setup: 'The part exists and has stock above zero at both locations; both locations have route times; the part has no alternate, superseded or equivalent parts.',
    params: { member, account, mfr_code: 'Manufacturer code of the part', part_number: 'Part number', location_1: 'First location', location_2: 'Second location' },
  },
  'a part does not exist': {
    setup: 'No part with this manufacturer code and part number exists in the catalogue.',
    params: { member, account, mfr_code: 'Manufacturer code', part_number: 'Part number that is not in the catalogue', location: 'A location of the member' },
  },
  'a part has an alternate': {
    setup: 'The part exists at the location and has exactly one related part, an alternate (status 2), also stocked at the location.',
    params: { member, account, mfr_code: 'Requested manufacturer code', part_number: 'Requested part number', related_mfr_code: 'Manufacturer code of the alternate', related_part_number: 'Part number of the alternate', location: 'Location' },
  },
  'a part has been superseded': {
    setup: 'The part exists at the location and has exactly one related part, the part superseding it (status 3), also stocked at the location.',
    params: { member, account, mfr_code: 'Requested manufacturer code', part_number: 'Requested (superseded) part number', related_mfr_code: 'Manufacturer code of the superseding part', related_part_number: 'Part number of the superseding part', location: 'Location' },
  },
  'a part has an equivalent': {
    setup: 'The part exists at the location and has exactly one related part, an equivalent (status 4), also stocked at the location.',
    params: { member, account, mfr_code: 'Requested manufacturer code', part_number: 'Requested part number', related_mfr_code: 'Manufacturer code of the equivalent', related_part_number: 'Part number of the equivalent', location: 'Location' },
  },
  'several parts are stocked at a location': {
    setup: 'Two parts exist with stock at the location and without related parts; a third part number does not exist.',
    params: { member, account, location: 'Location', mfr_code_1: 'First part: manufacturer code', part_number_1: 'First part: part number', mfr_code_2: 'Second part: manufacturer code', part_number_2: 'Second part: part number', unknown_mfr_code: 'Manufacturer code of the missing part', unknown_part_number: 'Part number that is not in the catalogue' },
  },
  'a part can be ordered': {
    setup: 'The part is stocked at the location with at least `quantity` available, and the account may order: the order line is received (status 1).',
    params: { member, account, location: 'Location', mfr_code: 'Manufacturer code', part_number: 'Part number', quantity: 'Quantity ordered (a number)' },
  },
  'a part is on backorder': {
    setup: 'The part exists but the location has less than `quantity` available: the order line is backordered (status 2).',
    params: { member, account, location: 'Location', mfr_code: 'Manufacturer code', part_number: 'Part number', quantity: 'Quantity ordered (a number)' },
  },
  'a part cannot be ordered': {
    setup: 'The part does not exist in the catalogue: the order line fails (status 0).',
    params: { member, account, location: 'Location', mfr_code: 'Manufacturer code', part_number: 'Part number that is not in the catalogue', quantity: 'Quantity ordered (a number)' },
  },
  'an account has invoices in a date range': {
    setup: 'The account has at least one invoice dated within the range, each with at least one detail line and a link to a downloadable copy.',
    params: { member, account, from_date: 'Start of the range, YYYY-MM-DD', to_date: 'End of the range, YYYY-MM-DD' },
  },
  'an account has an invoice with a number': {
    setup: 'The account has the invoice with this number, with at least one detail line and a link to a downloadable copy.',
    params: { member, account, invoice_number: 'Invoice number' },
  },
  'an account has an invoice for a PO number': {
    setup: 'The account has exactly one invoice for this purchase order number, with at least one detail line and a link to a downloadable copy.',
    params: { member, account, po_number: 'Purchase order number' },
  },
  'an account has statements in a date range': {
    setup: 'The account has at least one statement dated within the range, each with at least one detail line.',
    params: { member, account, from_date: 'Start of the range, YYYY-MM-DD', to_date: 'End of the range, YYYY-MM-DD' },
  },
} as const satisfies Record<string, StateDefinition>;

export type StateName = keyof typeof PROVIDER_STATES;
export type StateParams<S extends StateName> = Record<keyof (typeof PROVIDER_STATES)[S]['params'], string | number>;
export const STATE_NAMES = Object.keys(PROVIDER_STATES) as StateName[];
