import type { RelationKind, Scenario, ScenarioAccount, ScenarioPart } from '../contracts/schemas/scenario';
import type { StateName } from '../contracts/pact/provider-states';
import { BadRequestError } from './errors';

// The mock seller's handlers for the provider-state catalogue (contracts/pact/provider-states.ts):
// each changes the live scenario so that the named state holds, whatever states ran before
// (no reliance on teardown), and returns the values it used — a flat map, which every Pact
// verifier merges and injects into the interaction.

type Params = Record<string, unknown>;

export interface ProviderStateResult {
  scenario: Scenario;
  /** The ids the state set up, defaults filled in. */
  params: Params;
}

interface MockStateHandler {
  description: string;
  required: string[];
  setUp(scenario: Scenario, params: Params): Params;
}

const requiredString = (params: Params, name: string, fallback?: string): string => {
  const value = params[name] ?? fallback;
  if (typeof value !== 'string' || value === '')
    throw new BadRequestError(`param '${name}' must be a non-empty string`, [
      { keyword: 'param', path: `/params/${name}`, message: 'must be a non-empty string' },
    ]);
  return value;
};
const num = (params: Params, name: string, fallback: number): number => {
  const value = params[name] ?? fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
    throw new BadRequestError(`param '${name}' must be a number ≥ 0`, [
      { keyword: 'param', path: `/params/${name}`, message: 'must be a number ≥ 0' },
    ]);
  return value;
};
const list = (params: Params, name: string, fallback: string[]): string[] => {
  const value = params[name] ?? fallback;
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string'))
    throw new BadRequestError(`param '${name}' must be an array of strings`, [
      { keyword: 'param', path: `/params/${name}`, message: 'must be an array of strings' },
    ]);
  return value as string[];
};

function ensureLocation(scenario: Scenario, id: string, member?: string): void {
  if (scenario.locations.some((l) => l.id === id)) return;
  const owner = member ?? scenario.members[0].id;
  if (!scenario.members.some((m) => m.id === owner)) scenario.members.push({ id: owner, name: `Member ${owner}` });
  scenario.locations.push({ id, member: owner, description: `Location ${id}`, type: 1 });
}

/** The part, created when missing, stocked at each location with at least `quantity`. */
function ensurePart(
  scenario: Scenario,
  mfr: string,
  pn: string,
  locationIds: string[],
  quantity: number | undefined,
  member?: string,
): ScenarioPart {
  let part = scenario.parts.find((p) => p.mfr_code === mfr && p.part_number === pn);
  if (part === undefined) {
    part = {
      mfr_code: mfr,
      part_number: pn,
      part_description: `Part ${pn}`,
      mfr_description: mfr,
      weight: 1,
      stock: [],
    };
    scenario.parts.push(part);
  }
  for (const id of locationIds) {
    ensureLocation(scenario, id, member);
    const stock = part.stock.find((s) => s.location_id === id);
    if (stock === undefined)
      part.stock.push({
        location_id: id,
        cost: 6.2,
        list: 9.99,
        pack_code: 'EA',
        pack_quantity: 1,
        quantity_available: quantity ?? 10,
      });
    else if (quantity !== undefined) stock.quantity_available = Math.max(stock.quantity_available, quantity);
  }
  return part;
}

function removePart(scenario: Scenario, mfr: string, pn: string): void {
  scenario.parts = scenario.parts.filter((p) => !(p.mfr_code === mfr && p.part_number === pn));
  for (const p of scenario.parts)
    if (p.related) p.related = p.related.filter((r) => !(r.mfr_code === mfr && r.part_number === pn));
}

function ensureAccount(scenario: Scenario, member: string, account: string, description?: string): ScenarioAccount {
  if (!scenario.members.some((m) => m.id === member)) scenario.members.push({ id: member, name: `Member ${member}` });
  let found = scenario.accounts.find((a) => a.member === member && a.id === account);
  if (found === undefined) {
    found = { member, id: account, description: description ?? `Account ${account}`, invoices: [], statements: [] };
    scenario.accounts.push(found);
  }
  return found;
}

const firstLocationOf = (scenario: Scenario, member: string) =>
  scenario.locations.find((l) => l.member === member)?.id ?? scenario.locations[0].id;
const allLocations = (scenario: Scenario) => scenario.locations.map((l) => l.id);
const optionalString = (params: Params, name: string): string | undefined =>
  params[name] === undefined ? undefined : requiredString(params, name);

/**
 * The locations a part state names: `location_ids`, or `location_id` and
 * `second_location_id` as the pact's catalogue passes them (contracts/pact/provider-states.ts);
 * every location when none is named. The echo repeats the single-location params given,
 * so Pact injects the same values it sent.
 */
function namedLocations(scenario: Scenario, params: Params): { ids: string[]; echo: Params } {
  if (params.location_ids !== undefined) return { ids: list(params, 'location_ids', []), echo: {} };
  const first = optionalString(params, 'location_id');
  const second = optionalString(params, 'second_location_id');
  if (first === undefined) {
    if (second !== undefined)
      throw new BadRequestError("param 'second_location_id' needs 'location_id'", [
        { keyword: 'param', path: '/params/location_id', message: "required with 'second_location_id'" },
      ]);
    return { ids: allLocations(scenario), echo: {} };
  }
  return {
    ids: second === undefined || second === first ? [first] : [first, second],
    echo: { location_id: first, ...(second === undefined ? {} : { second_location_id: second }) },
  };
}

/** The part is removed from the scenario: inquiries answer status 0, orders fail. */
function unknownPartState(description: string): MockStateHandler {
  return {
    description,
    required: ['mfr_code', 'part_number'],
    setUp(scenario, params) {
      const mfr = requiredString(params, 'mfr_code');
      const pn = requiredString(params, 'part_number');
      removePart(scenario, mfr, pn);
      return { mfr_code: mfr, part_number: pn };
    },
  };
}

function relatedState(kind: RelationKind): MockStateHandler {
  return {
    description:
      `the part exists, and its ${kind} part (status ${kind === 'alternate' ? 2 : kind === 'superseded' ? 3 : 4}) is its only ` +
      `related part; both stocked (at least quantity_available, default 10) at location_ids, or location_id (default: every location)`,
    required: ['mfr_code', 'part_number'],
    setUp(scenario, params) {
      const mfr = requiredString(params, 'mfr_code');
      const pn = requiredString(params, 'part_number');
      const relMfr = requiredString(
        params,
        'related_mfr_code',
        (params.alternate_mfr_code as string | undefined) ?? mfr,
      );
      const relPn = requiredString(
        params,
        'related_part_number',
        (params.alternate_part_number as string | undefined) ?? `${pn}-${kind.slice(0, 3).toUpperCase()}`,
      );
      const member = optionalString(params, 'member');
      const locations = namedLocations(scenario, params);
      const quantity = num(params, 'quantity_available', 10);
      const part = ensurePart(scenario, mfr, pn, locations.ids, quantity, member);
      ensurePart(scenario, relMfr, relPn, locations.ids, quantity, member);
      // The only related part, so the reply has exactly the interaction's entries.
      part.related = [{ kind, mfr_code: relMfr, part_number: relPn }];
      return {
        mfr_code: mfr,
        part_number: pn,
        related_mfr_code: relMfr,
        related_part_number: relPn,
        kind,
        ...locations.echo,
        location_ids: locations.ids,
        quantity_available: quantity,
      };
    },
  };
}

/** Route times for a location that has none, so 'part has route times' holds anywhere. */
const DEFAULT_ROUTE = {
  cutoff_time: '2026-11-23 10:00:00',
  arrival_time: '2026-11-23 11:30:00',
  pickup_time: '2026-11-23 11:45:00',
  route_code: 'PACT-1',
};

const orderLine = (params: Params) => ({
  mfr: requiredString(params, 'mfr_code'),
  pn: requiredString(params, 'part_number'),
  location: requiredString(params, 'location_id'),
  quantity: num(params, 'quantity', 1),
});

const accountHasInvoices: MockStateHandler = {
  description:
    'the account exists at the member and has an invoice matching the given fields (invoice_number, po_number, invoice_date or from/to_invoice_date, location_id, part_number, invoice_type)',
  required: ['member', 'account'],
  setUp(scenario, params) {
    const member = requiredString(params, 'member');
    const account = ensureAccount(
      scenario,
      member,
      requiredString(params, 'account'),
      params.account_description as string | undefined,
    );
    const locationId = requiredString(params, 'location_id', firstLocationOf(scenario, member));
    ensureLocation(scenario, locationId, member);
    const date = requiredString(
      params,
      'invoice_date',
      (params.from_invoice_date ?? params.to_invoice_date ?? '2026-11-02') as string,
    );
    const invoiceNumber = requiredString(params, 'invoice_number', `INV-PACT-${account.invoices.length + 1}`);
    const poNumber = requiredString(params, 'po_number', 'PO-PACT-1');
    const partNumber = requiredString(params, 'part_number', '51515');
    const invoiceType = requiredString(params, 'invoice_type', 'IN');
    account.invoices = account.invoices.filter((i) => i.invoice_number !== invoiceNumber);
    account.invoices.push({
      invoice_number: invoiceNumber,
      invoice_date: date,
      location_id: locationId,
      po_number: poNumber,
      invoice_type: invoiceType,
      item_count: 2,
      total_cost: 11.76,
      invoice_detail: [
        {
          item_quantity: 2,
          line_code: 'WIX',
          part_number: partNumber,
          list_price: 9.49,
          cost: 5.88,
          description: 'Engine oil filter',
        },
      ],
    });
    return {
      member,
      account: account.id,
      invoice_number: invoiceNumber,
      invoice_date: date,
      po_number: poNumber,
      location_id: locationId,
      part_number: partNumber,
      invoice_type: invoiceType,
    };
  },
};

/** A state the mock seller sets up beyond the pact's catalogue: an account it does not know, for our own tests. */
type MockOnlyStateName = 'account is unknown';

/** One handler per state of the catalogue: a state without one does not compile. */
export const MOCK_SELLER_STATE_HANDLERS = {
  'part exists': {
    description:
      'the part is in the catalogue without related parts, stocked at location_ids, or location_id and second_location_id (default: every location), with at least quantity_available (default 10)',
    required: ['mfr_code', 'part_number'],
    setUp(scenario, params) {
      const mfr = requiredString(params, 'mfr_code');
      const pn = requiredString(params, 'part_number');
      const locations = namedLocations(scenario, params);
      const quantity = num(params, 'quantity_available', 10);
      const part = ensurePart(scenario, mfr, pn, locations.ids, quantity, optionalString(params, 'member'));
      // The catalogue's 'part exists' has no alternates: the reply is the part's entry alone.
      delete part.related;
      return {
        mfr_code: mfr,
        part_number: pn,
        ...locations.echo,
        location_ids: locations.ids,
        quantity_available: quantity,
      };
    },
  },
  'part has route times': {
    description:
      'the part is in the catalogue without related parts, stocked at location_id (at least quantity_available, ' +
      'default 10), and location_id has route times (a default route is added when it has none)',
    required: ['mfr_code', 'part_number', 'location_id'],
    setUp(scenario, params) {
      const mfr = requiredString(params, 'mfr_code');
      const pn = requiredString(params, 'part_number');
      const locationId = requiredString(params, 'location_id');
      const quantity = num(params, 'quantity_available', 10);
      const part = ensurePart(scenario, mfr, pn, [locationId], quantity, optionalString(params, 'member'));
      delete part.related;
      const location = scenario.locations.find((l) => l.id === locationId)!;
      if (location.route_times === undefined || location.route_times.length === 0)
        location.route_times = [DEFAULT_ROUTE];
      return { mfr_code: mfr, part_number: pn, location_id: locationId, quantity_available: quantity };
    },
  },
  'part has alternate': relatedState('alternate'),
  'part has superseded': relatedState('superseded'),
  'part has equivalent': relatedState('equivalent'),
  'part is unknown': unknownPartState('the seller does not know the part (item status 0, order item failure)'),
  'two parts exist and a third is unknown': {
    description:
      'mfr_code/part_number and second_mfr_code/second_part_number are stocked at location_id (at least ' +
      'quantity_available, default 10) without related parts; unknown_mfr_code/unknown_part_number is not in the catalogue',
    required: [
      'mfr_code',
      'part_number',
      'second_mfr_code',
      'second_part_number',
      'unknown_mfr_code',
      'unknown_part_number',
      'location_id',
    ],
    setUp(scenario, params) {
      const locationId = requiredString(params, 'location_id');
      const quantity = num(params, 'quantity_available', 10);
      const member = optionalString(params, 'member');
      const unknown = {
        unknown_mfr_code: requiredString(params, 'unknown_mfr_code'),
        unknown_part_number: requiredString(params, 'unknown_part_number'),
      };
      // Removed first: the two stocked parts win should a vendor name one of them twice.
      removePart(scenario, unknown.unknown_mfr_code, unknown.unknown_part_number);
      const stocked = {
        mfr_code: requiredString(params, 'mfr_code'),
        part_number: requiredString(params, 'part_number'),
        second_mfr_code: requiredString(params, 'second_mfr_code'),
        second_part_number: requiredString(params, 'second_part_number'),
      };
      for (const [mfr, pn] of [
        [stocked.mfr_code, stocked.part_number],
        [stocked.second_mfr_code, stocked.second_part_number],
      ]) {
        delete ensurePart(scenario, mfr, pn, [locationId], quantity, member).related;
      }
      return { ...stocked, ...unknown, location_id: locationId, quantity_available: quantity };
    },
  },
  'order can be received': {
    description: 'the part is stocked at location_id with at least quantity (order item status 1)',
    required: ['mfr_code', 'part_number', 'location_id'],
    setUp(scenario, params) {
      const { mfr, pn, location, quantity } = orderLine(params);
      ensurePart(scenario, mfr, pn, [location], quantity);
      return { mfr_code: mfr, part_number: pn, location_id: location, quantity };
    },
  },
  'order will be backordered': {
    description: 'the part is known but location_id has none in stock (order item status 2)',
    required: ['mfr_code', 'part_number', 'location_id'],
    setUp(scenario, params) {
      const { mfr, pn, location, quantity } = orderLine(params);
      const part = ensurePart(scenario, mfr, pn, [location], undefined);
      part.stock.find((s) => s.location_id === location)!.quantity_available = 0;
      return { mfr_code: mfr, part_number: pn, location_id: location, quantity };
    },
  },
  'order will fail': unknownPartState('the ordered part is unknown to the seller (order item status 0)'),
  'account has invoices': accountHasInvoices,
  'invoice has a downloadable copy': {
    description:
      'the account exists at the member and has the invoice invoice_number (the mock serves every invoice with a link_url to a copy)',
    required: ['member', 'account', 'invoice_number'],
    setUp: accountHasInvoices.setUp,
  },
  'account has statements': {
    description:
      'the account exists at the member and has a statement matching the given fields (statement_date or from/to_statement_date, location_id, statement_type)',
    required: ['member', 'account'],
    setUp(scenario, params) {
      const member = requiredString(params, 'member');
      const account = ensureAccount(
        scenario,
        member,
        requiredString(params, 'account'),
        params.account_description as string | undefined,
      );
      const date = requiredString(
        params,
        'statement_date',
        (params.to_statement_date ?? params.from_statement_date ?? '2026-10-31') as string,
      );
      const statementType = requiredString(params, 'statement_type', 'monthly');
      const locationId = params.location_id === undefined ? undefined : requiredString(params, 'location_id');
      if (locationId !== undefined) ensureLocation(scenario, locationId, member);
      account.statements = account.statements.filter((s) => s.statement_date !== date);
      account.statements.push({
        statement_date: date,
        location_id: locationId,
        statement_type: statementType,
        total_cost: 11.76,
        statement_detail: [
          {
            invoice_date: date,
            invoice_number: 'INV-PACT-1',
            reference_number: 'PO-PACT-1',
            original_amount: 11.76,
            paid_amount: 0,
            reference_type: 'invoice',
          },
        ],
      });
      return {
        member,
        account: account.id,
        statement_date: date,
        statement_type: statementType,
        ...(locationId === undefined ? {} : { location_id: locationId }),
      };
    },
  },
  'account is unknown': {
    description: 'the seller has no such account at the member (invoice/statement status "error")',
    required: ['member', 'account'],
    setUp(scenario, params) {
      const member = requiredString(params, 'member');
      const account = requiredString(params, 'account');
      scenario.accounts = scenario.accounts.filter((a) => !(a.member === member && a.id === account));
      return { member, account };
    },
  },
} satisfies Record<StateName | MockOnlyStateName, MockStateHandler>;

const isHandledState = (state: string): state is keyof typeof MOCK_SELLER_STATE_HANDLERS =>
  Object.hasOwn(MOCK_SELLER_STATE_HANDLERS, state);

/** Applies a named state to a copy of `scenario`. */
export function setUpProviderState(scenario: Scenario, state: string, params: Params = {}): ProviderStateResult {
  if (!isHandledState(state)) {
    throw new BadRequestError(
      `unknown provider state '${state}'; known: ${Object.keys(MOCK_SELLER_STATE_HANDLERS).join(', ')}`,
      [{ keyword: 'state', path: '/state', message: `unknown provider state '${state}'` }],
    );
  }
  const copy = structuredClone(scenario);
  return { scenario: copy, params: MOCK_SELLER_STATE_HANDLERS[state].setUp(copy, params) };
}
