import { MatchersV3 } from '@pact-foundation/pact';
import type { ForwardedOperation } from '../reply-check';
import type { StateName, StateParams } from '../pact/provider-states';
import type { OptionalCapability } from '../pact/optional-capabilities';

// The gateway → seller interactions of the contract, as data: the consumer test drives the
// real seller client through each one, the replay server and the docs read them.
//
// Each interaction has ONE provider state whose parameters name every value it injects, so
// any Pact verifier resolves each `${param}` without collision (see provider-states.ts), and
// each asks only what the specification requires: optional fields the gateway uses (route
// times, a downloadable copy) have interactions and states of their own.
//
// Matcher policy:
// - item `id`s are exact literals on both sides: they are the gateway's, never injected, so
//   Pact itself proves the id echo on any seller's data;
// - status codes and `status` are exact literals: they carry the meaning of the example
//   (where the specification allows two, a pattern admits both);
// - seller data (part numbers, manufacturer codes, locations, account, member, document
//   numbers, dates) comes from the provider state (`fromProviderState('${param}', example)`)
//   so a seller may inject its own. On the reply side Pact can then only type-check them
//   (an injected value is never compared for equality), so the echo of
//   `part_number`/`mfr_code` and `original_part`/`original_mfr` is proven by the reply
//   rules, which the rules-checking proxy applies to every exchange on the seller's real data;
// - values that vary (prices, quantities, descriptions, document numbers in a range) use
//   type or regex matchers.

const { fromProviderState, eachLike, atLeastLike, integer, number, regex, string } = MatchersV3;

export interface ProviderStateRef {
  name: StateName;
  params: Record<string, string | number>;
}

export interface SellerInteraction {
  description: string;
  operation: ForwardedOperation;
  state: ProviderStateRef;
  /** Forwarded request body, with matchers. */
  request: Record<string, unknown>;
  /** Seller reply body, with matchers. */
  response: Record<string, unknown>;
  /** Set when the interaction exists only for an optional field: which one (written into the pact's comments). */
  optional?: OptionalCapability;
}

const DATE = '^\\d{4}-\\d{2}-\\d{2}$';
const ROUTE_TIME = '^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$';
const URL_PATTERN = '^https?://\\S+$';

/** A state with its parameters checked against the catalogue at compile time. */
const state = <S extends StateName>(name: S, params: StateParams<S>): ProviderStateRef => ({
  name,
  params: params as Record<string, string | number>,
});

/** `value(param)`: seller data named by the interaction's state, injectable. */
type Value = (param: string) => unknown;

function interaction(
  spec: Omit<SellerInteraction, 'request' | 'response'> & {
    build: (value: Value) => Pick<SellerInteraction, 'request' | 'response'>;
  },
): SellerInteraction {
  const { build, ...rest } = spec;
  const value: Value = (param) => {
    const example = spec.state.params[param];
    if (example === undefined)
      throw new Error(`${spec.description}: state '${spec.state.name}' has no param '${param}'`);
    return fromProviderState(`\${${param}}`, example);
  };
  return { ...rest, ...build(value) };
}

/** An integer field that may take either of two codes (Pact's regex matcher reads numbers as text). */
const eitherCode = (a: number, b: number, example: number) => ({
  'pact:matcher:type': 'regex',
  regex: `^(${a}|${b})$`,
  value: example,
});

const routeTime = {
  cutoff_time: regex(ROUTE_TIME, '2026-11-23 10:00:00'),
  arrival_time: regex(ROUTE_TIME, '2026-11-23 11:30:00'),
  pickup_time: regex(ROUTE_TIME, '2026-11-23 11:45:00'),
  route_code: string('N-AM'),
};

/** Price and availability at one location (the specification's required fields); `withRoutes` adds route times. */
function stock(id: unknown, withRoutes = false) {
  return {
    id,
    cost: number(5.88),
    list: number(9.49),
    pack_code: string('EA'),
    pack_quantity: integer(1),
    quantity_available: number(24),
    ...(withRoutes ? { route_times: eachLike(routeTime) } : {}),
  };
}

const locationRef = (value: Value, location = 'location_id') => ({
  id: value(location),
  member: value('member'),
  account: value('account'),
});

const northside = { member: 'M100', account: 'A-1001' };

const RELATED_STATUS = { 'part has alternate': 2, 'part has superseded': 3, 'part has equivalent': 4 } as const;

/** Requested part plus one related part of the state's kind, at one location. */
function relatedPartInteraction<S extends keyof typeof RELATED_STATUS>(
  description: string,
  name: S,
  params: StateParams<S>,
  id: string,
): SellerInteraction {
  // A superseded part may no longer be stocked: its own entry answers 1 or 0, with or without locations.
  const superseded = name === 'part has superseded';
  return interaction({
    description,
    operation: 'item-inquiry',
    state: state(name, params),
    build: (value) => ({
      request: {
        service: 'item_inquiry',
        locations: [locationRef(value)],
        items: [{ id, mfr_code: value('mfr_code'), part_number: value('part_number') }],
      },
      response: {
        status_code: 2000,
        items: [
          {
            id,
            mfr_code: value('mfr_code'),
            part_number: value('part_number'),
            status_code: superseded ? eitherCode(0, 1, 1) : 1,
            locations: superseded ? atLeastLike(stock(value('location_id')), 0, 1) : [stock(value('location_id'))],
          },
          {
            id,
            mfr_code: value('related_mfr_code'),
            part_number: value('related_part_number'),
            original_part: value('part_number'),
            original_mfr: value('mfr_code'),
            status_code: RELATED_STATUS[name],
            locations: [stock(value('location_id'))],
          },
        ],
      },
    }),
  });
}

function orderInteraction(
  description: string,
  order: ProviderStateRef,
  id: string,
  po: string,
  itemStatus: 0 | 1 | 2,
): SellerInteraction {
  return interaction({
    description,
    operation: 'place-order',
    state: order,
    build: (value) => ({
      request: {
        service: 'place_order',
        purchase_order_number: po,
        order_type: 1,
        items: [
          {
            id,
            mfr_code: value('mfr_code'),
            part_number: value('part_number'),
            location_id: value('location_id'),
            account_id: value('account'),
            member_id: value('member'),
            quantity_ordered: value('quantity'),
          },
        ],
      },
      response: {
        order_number: string('SO-100001'),
        status_code: 2000,
        items: [{ id, status_code: itemStatus, quantity_ordered: number(order.params.quantity as number) }],
      },
    }),
  });
}

/** An invoice with the specification's required fields; `overrides` pins some to the request. */
function invoice(value: Value, overrides: Record<string, unknown> = {}) {
  return {
    invoice_number: string('INV-100405'),
    invoice_date: regex(DATE, '2026-10-12'),
    account_id: value('account'),
    location_id: string('L101'),
    location_description: string('Northside Main St'),
    po_number: string('PO-7005'),
    item_count: number(2),
    total_cost: number(11.76),
    invoice_detail: eachLike({
      item_quantity: number(2),
      line_code: string('WIX'),
      part_number: string('51515'),
      list_price: number(9.49),
      cost: number(5.88),
    }),
    ...overrides,
  };
}

export const SELLER_INTERACTIONS: SellerInteraction[] = [
  interaction({
    description: 'an item inquiry for a part stocked at two locations',
    operation: 'item-inquiry',
    state: state('part exists', {
      ...northside,
      mfr_code: 'WIX',
      part_number: '49100',
      location_id: 'L101',
      second_location_id: 'L150',
    }),
    build: (value) => ({
      request: {
        service: 'item_inquiry',
        locations: [locationRef(value), locationRef(value, 'second_location_id')],
        items: [{ id: 'stocked-1', mfr_code: value('mfr_code'), part_number: value('part_number') }],
      },
      response: {
        status_code: 2000,
        items: [
          {
            id: 'stocked-1',
            mfr_code: value('mfr_code'),
            part_number: value('part_number'),
            status_code: 1,
            locations: [stock(value('location_id')), stock(value('second_location_id'))],
          },
        ],
      },
    }),
  }),
  interaction({
    description: 'an item inquiry for a part at a location with route times',
    operation: 'item-inquiry',
    optional: { field: 'route_times', of: 'an item location' },
    state: state('part has route times', { ...northside, mfr_code: 'WIX', part_number: '51515', location_id: 'L101' }),
    build: (value) => ({
      request: {
        service: 'item_inquiry',
        locations: [locationRef(value)],
        items: [{ id: 'routes-1', mfr_code: value('mfr_code'), part_number: value('part_number') }],
      },
      response: {
        status_code: 2000,
        items: [
          {
            id: 'routes-1',
            mfr_code: value('mfr_code'),
            part_number: value('part_number'),
            status_code: 1,
            locations: [stock(value('location_id'), true)],
          },
        ],
      },
    }),
  }),
  interaction({
    description: 'an item inquiry for an unknown part',
    operation: 'item-inquiry',
    state: state('part is unknown', {
      ...northside,
      mfr_code: 'WIX',
      part_number: 'NO-SUCH-PART',
      location_id: 'L101',
    }),
    build: (value) => ({
      request: {
        service: 'item_inquiry',
        locations: [locationRef(value)],
        items: [{ id: 'unknown-1', mfr_code: value('mfr_code'), part_number: value('part_number') }],
      },
      response: {
        status_code: 2000,
        items: [
          {
            id: 'unknown-1',
            mfr_code: value('mfr_code'),
            part_number: value('part_number'),
            status_code: 0,
            locations: [],
          },
        ],
      },
    }),
  }),
  relatedPartInteraction(
    'an item inquiry for a part with an alternate',
    'part has alternate',
    {
      ...northside,
      mfr_code: 'MOT',
      part_number: 'BRF1478',
      related_mfr_code: 'BOS',
      related_part_number: 'BC905',
      location_id: 'L150',
    },
    'alternate-1',
  ),
  relatedPartInteraction(
    'an item inquiry for a superseded part',
    'part has superseded',
    {
      ...northside,
      mfr_code: 'BOS',
      part_number: '0242236562',
      related_mfr_code: 'BOS',
      related_part_number: '9652',
      location_id: 'L150',
    },
    'superseded-1',
  ),
  relatedPartInteraction(
    'an item inquiry for a part with an equivalent',
    // A part of its own: the default scenario's parts with equivalents have two each.
    'part has equivalent',
    {
      ...northside,
      mfr_code: 'ACD',
      part_number: '41-993',
      related_mfr_code: 'NGK',
      related_part_number: 'ILZKR7B11',
      location_id: 'L150',
    },
    'equivalent-1',
  ),
  interaction({
    description: 'an item inquiry for several parts, each id echoed',
    operation: 'item-inquiry',
    state: state('two parts exist and a third is unknown', {
      ...northside,
      location_id: 'L101',
      mfr_code: 'WIX',
      part_number: '49100',
      second_mfr_code: 'DAY',
      second_part_number: '89012',
      unknown_mfr_code: 'GAT',
      unknown_part_number: 'NO-SUCH-PART',
    }),
    build: (value) => ({
      request: {
        service: 'item_inquiry',
        locations: [locationRef(value)],
        items: [
          { id: 'several-1', mfr_code: value('mfr_code'), part_number: value('part_number') },
          { id: 'several-2', mfr_code: value('second_mfr_code'), part_number: value('second_part_number') },
          { id: 'several-3', mfr_code: value('unknown_mfr_code'), part_number: value('unknown_part_number') },
        ],
      },
      response: {
        status_code: 2000,
        items: [
          {
            id: 'several-1',
            mfr_code: value('mfr_code'),
            part_number: value('part_number'),
            status_code: 1,
            locations: [stock(value('location_id'))],
          },
          {
            id: 'several-2',
            mfr_code: value('second_mfr_code'),
            part_number: value('second_part_number'),
            status_code: 1,
            locations: [stock(value('location_id'))],
          },
          {
            id: 'several-3',
            mfr_code: value('unknown_mfr_code'),
            part_number: value('unknown_part_number'),
            status_code: 0,
            locations: [],
          },
        ],
      },
    }),
  }),
  orderInteraction(
    'an order for a part in stock, received',
    state('order can be received', {
      ...northside,
      mfr_code: 'WIX',
      part_number: '49100',
      location_id: 'L101',
      quantity: 2,
    }),
    'order-received-1',
    'PO-PACT-1',
    1,
  ),
  orderInteraction(
    'an order for more than is in stock, backordered',
    state('order will be backordered', {
      ...northside,
      mfr_code: 'WIX',
      part_number: '49100',
      location_id: 'L101',
      quantity: 5000,
    }),
    'order-backorder-1',
    'PO-PACT-2',
    2,
  ),
  orderInteraction(
    'an order for an unknown part, failed',
    state('order will fail', {
      ...northside,
      mfr_code: 'WIX',
      part_number: 'NO-SUCH-PART',
      location_id: 'L101',
      quantity: 1,
    }),
    'order-failure-1',
    'PO-PACT-3',
    0,
  ),
  interaction({
    description: 'invoices by date range',
    operation: 'invoice',
    state: state('account has invoices', {
      ...northside,
      from_invoice_date: '2026-10-01',
      to_invoice_date: '2026-10-31',
    }),
    build: (value) => ({
      request: {
        service: 'invoice',
        member: value('member'),
        account: value('account'),
        from_invoice_date: value('from_invoice_date'),
        to_invoice_date: value('to_invoice_date'),
      },
      response: { status: 'success', invoices: eachLike(invoice(value)) },
    }),
  }),
  interaction({
    description: 'an invoice by invoice number',
    operation: 'invoice',
    state: state('account has invoices', { ...northside, invoice_number: 'INV-100405' }),
    build: (value) => ({
      request: {
        service: 'invoice',
        member: value('member'),
        account: value('account'),
        invoice_number: value('invoice_number'),
      },
      response: { status: 'success', invoices: eachLike(invoice(value, { invoice_number: value('invoice_number') })) },
    }),
  }),
  interaction({
    description: 'invoices by PO number',
    operation: 'invoice',
    state: state('account has invoices', { ...northside, po_number: 'PO-7005' }),
    build: (value) => ({
      request: {
        service: 'invoice',
        member: value('member'),
        account: value('account'),
        po_number: value('po_number'),
      },
      response: { status: 'success', invoices: eachLike(invoice(value, { po_number: value('po_number') })) },
    }),
  }),
  interaction({
    description: 'an invoice with a downloadable copy',
    operation: 'invoice',
    optional: { field: 'link_url', of: 'an invoice' },
    state: state('invoice has a downloadable copy', { ...northside, invoice_number: 'INV-100404' }),
    build: (value) => ({
      request: {
        service: 'invoice',
        member: value('member'),
        account: value('account'),
        invoice_number: value('invoice_number'),
      },
      response: {
        status: 'success',
        invoices: eachLike(
          invoice(value, {
            invoice_number: value('invoice_number'),
            link_url: regex(URL_PATTERN, 'https://seller.example/documents/invoices/INV-100404.pdf'),
          }),
        ),
      },
    }),
  }),
  interaction({
    description: 'statements by date range, with their detail lines',
    operation: 'statement',
    state: state('account has statements', {
      ...northside,
      from_statement_date: '2026-09-01',
      to_statement_date: '2026-10-31',
    }),
    build: (value) => ({
      request: {
        service: 'statement',
        member: value('member'),
        account: value('account'),
        from_statement_date: value('from_statement_date'),
        to_statement_date: value('to_statement_date'),
      },
      response: {
        status: 'success',
        statements: eachLike({
          statement_date: regex(DATE, '2026-09-30'),
          account_id: value('account'),
          total_cost: number(0),
          statement_detail: eachLike({ invoice_date: regex(DATE, '2026-09-26') }),
        }),
      },
    }),
  }),
];
