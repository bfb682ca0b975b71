import { MatchersV3 } from '@pact-foundation/pact';
import type { ForwardedOperation } from '../reply-check';
import { PROVIDER_STATES, type StateName, type StateParams } from './provider-states';

// The gateway → seller interactions of the contract, as data: the consumer test drives the
// real seller client through each one, the replay server and the docs read them.
//
// Matcher policy:
// - item `id`s are exact literals on both sides: they are the gateway's, never injected, so
//   Pact itself proves the id echo on any seller's data;
// - status codes and `status` are exact literals: they carry the meaning of the example;
// - seller data (part numbers, manufacturer codes, locations, account, member, document
//   numbers, dates) comes from the provider state (`fromProviderState('${param}', example)`)
//   so a seller may inject its own. On the reply side Pact can then only type-check them
//   (pact-js 16: an injected value is never compared for equality), so the echo of
//   `part_number`/`mfr_code` and `original_part`/`original_mfr` is proven by the reply
//   rules, which the verification kit applies to every exchange on the seller's real data;
// - values that vary (prices, quantities, descriptions, document numbers in a range) use
//   type or regex matchers.

const { fromProviderState, eachLike, integer, number, regex, string } = MatchersV3;

export interface SellerInteraction {
  description: string;
  operation: ForwardedOperation;
  state: StateName;
  params: Record<string, string | number>;
  /** Forwarded request body, with matchers. */
  request: Record<string, unknown>;
  /** Seller reply body, with matchers. */
  response: Record<string, unknown>;
}

const DATE = '^\\d{4}-\\d{2}-\\d{2}$';
const ROUTE_TIME = '^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$';
const URL_PATTERN = '^https?://\\S+$';

/** An interaction whose params are checked against the state catalogue at compile time. */
function interaction<S extends StateName>(
  spec: Omit<SellerInteraction, 'state' | 'params' | 'request' | 'response'> & {
    state: S;
    params: StateParams<S>;
    build: (value: (param: keyof (typeof PROVIDER_STATES)[S]['params'] & string) => unknown) => Pick<SellerInteraction, 'request' | 'response'>;
  },
): SellerInteraction {
  const { build, ...rest } = spec;
  const params = spec.params as Record<string, string | number>;
  const value = (param: string) => fromProviderState(`\${${param}}`, params[param]);
  return { ...rest, params, ...build(value) };
}

const routeTime = {
  cutoff_time: regex(ROUTE_TIME, '2026-11-23 10:00:00'),
  arrival_time: regex(ROUTE_TIME, '2026-11-23 11:30:00'),
  pickup_time: regex(ROUTE_TIME, '2026-11-23 11:45:00'),
  route_code: string('N-AM'),
};

/** Price and availability at one location; `withRoutes` adds the route times. */
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

type Value = (param: string) => unknown;

function locationRef(value: Value, location: string) {
  return { id: value(location), member: value('member'), account: value('account') };
}

/** Requested part plus one related part of the given status, both at one location. */
function relatedPartInteraction<S extends 'a part has an alternate' | 'a part has been superseded' | 'a part has an equivalent'>(
  description: string,
  state: S,
  params: StateParams<S>,
  id: string,
  relatedStatus: 2 | 3 | 4,
): SellerInteraction {
  return interaction({
    description,
    operation: 'item-inquiry',
    state,
    params,
    build: (value) => ({
      request: {
        service: 'item_inquiry',
        locations: [locationRef(value as Value, 'location')],
        items: [{ id, mfr_code: value('mfr_code'), part_number: value('part_number') }],
      },
      response: {
        status_code: 2000,
        items: [
          { id, mfr_code: value('mfr_code'), part_number: value('part_number'), status_code: 1, locations: [stock(value('location'))] },
          {
            id,
            mfr_code: value('related_mfr_code'),
            part_number: value('related_part_number'),
            original_part: value('part_number'),
            original_mfr: value('mfr_code'),
            status_code: relatedStatus,
            locations: [stock(value('location'))],
          },
        ],
      },
    }),
  });
}

const northside = { member: 'M100', account: 'A-1001' };

function orderInteraction<S extends 'a part can be ordered' | 'a part is on backorder' | 'a part cannot be ordered'>(
  description: string,
  state: S,
  params: StateParams<S>,
  id: string,
  po: string,
  itemStatus: 0 | 1 | 2,
): SellerInteraction {
  return interaction({
    description,
    operation: 'place-order',
    state,
    params,
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
            location_id: value('location'),
            account_id: value('account'),
            member_id: value('member'),
            quantity_ordered: value('quantity'),
          },
        ],
      },
      response: {
        order_number: string('SO-100001'),
        status_code: 2000,
        items: [{ id, status_code: itemStatus, quantity_ordered: number(params.quantity as number) }],
      },
    }),
  });
}

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
    link_url: regex(URL_PATTERN, 'https://seller.example/invoices/INV-100405.pdf'),
    ...overrides,
  };
}

export const SELLER_INTERACTIONS: SellerInteraction[] = [
  interaction({
    description: 'an item inquiry for a part stocked at two locations with route times',
    operation: 'item-inquiry',
    state: 'a part is stocked at two locations',
    params: { ...northside, mfr_code: 'WIX', part_number: '49100', location_1: 'L101', location_2: 'L150' },
    build: (value) => ({
      request: {
        service: 'item_inquiry',
        locations: [locationRef(value as Value, 'location_1'), locationRef(value as Value, 'location_2')],
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
            locations: [stock(value('location_1'), true), stock(value('location_2'), true)],
          },
        ],
      },
    }),
  }),
  interaction({
    description: 'an item inquiry for an unknown part',
    operation: 'item-inquiry',
    state: 'a part does not exist',
    params: { ...northside, mfr_code: 'WIX', part_number: 'NO-SUCH-PART', location: 'L101' },
    build: (value) => ({
      request: {
        service: 'item_inquiry',
        locations: [locationRef(value as Value, 'location')],
        items: [{ id: 'unknown-1', mfr_code: value('mfr_code'), part_number: value('part_number') }],
      },
      response: {
        status_code: 2000,
        items: [{ id: 'unknown-1', mfr_code: value('mfr_code'), part_number: value('part_number'), status_code: 0, locations: [] }],
      },
    }),
  }),
  relatedPartInteraction(
    'an item inquiry for a part with an alternate',
    'a part has an alternate',
    { ...northside, mfr_code: 'MOT', part_number: 'BRF1478', related_mfr_code: 'BOS', related_part_number: 'BC905', location: 'L150' },
    'alternate-1',
    2,
  ),
  relatedPartInteraction(
    'an item inquiry for a superseded part',
    'a part has been superseded',
    { ...northside, mfr_code: 'BOS', part_number: '0242236562', related_mfr_code: 'BOS', related_part_number: '9652', location: 'L150' },
    'superseded-1',
    3,
  ),
  relatedPartInteraction(
    'an item inquiry for a part with an equivalent',
    'a part has an equivalent',
    { ...northside, mfr_code: 'ACD', part_number: '41-110', related_mfr_code: 'NGK', related_part_number: 'ILZKR7B11', location: 'L150' },
    'equivalent-1',
    4,
  ),
  interaction({
    description: 'an item inquiry for several parts, each id echoed',
    operation: 'item-inquiry',
    state: 'several parts are stocked at a location',
    params: { ...northside, location: 'L101', mfr_code_1: 'WIX', part_number_1: '49100', mfr_code_2: 'DAY', part_number_2: '89012', unknown_mfr_code: 'GAT', unknown_part_number: 'NO-SUCH-PART' },
    build: (value) => ({
      request: {
        service: 'item_inquiry',
        locations: [locationRef(value as Value, 'location')],
        items: [
          { id: 'several-1', mfr_code: value('mfr_code_1'), part_number: value('part_number_1') },
          { id: 'several-2', mfr_code: value('mfr_code_2'), part_number: value('part_number_2') },
          { id: 'several-3', mfr_code: value('unknown_mfr_code'), part_number: value('unknown_part_number') },
        ],
      },
      response: {
        status_code: 2000,
        items: [
          { id: 'several-1', mfr_code: value('mfr_code_1'), part_number: value('part_number_1'), status_code: 1, locations: [stock(value('location'))] },
          { id: 'several-2', mfr_code: value('mfr_code_2'), part_number: value('part_number_2'), status_code: 1, locations: [stock(value('location'))] },
          { id: 'several-3', mfr_code: value('unknown_mfr_code'), part_number: value('unknown_part_number'), status_code: 0, locations: [] },
        ],
      },
    }),
  }),
  orderInteraction('an order for a part in stock, received', 'a part can be ordered', { ...northside, location: 'L101', mfr_code: 'WIX', part_number: '49100', quantity: 2 }, 'order-received-1', 'PO-PACT-1', 1),
  orderInteraction('an order for more than is in stock, backordered', 'a part is on backorder', { ...northside, location: 'L101', mfr_code: 'WIX', part_number: '49100', quantity: 5000 }, 'order-backorder-1', 'PO-PACT-2', 2),
  orderInteraction('an order for an unknown part, failed', 'a part cannot be ordered', { ...northside, location: 'L101', mfr_code: 'WIX', part_number: 'NO-SUCH-PART', quantity: 1 }, 'order-failure-1', 'PO-PACT-3', 0),
  interaction({
    description: 'invoices by date range',
    operation: 'invoice',
    state: 'an account has invoices in a date range',
    params: { ...northside, from_date: '2026-10-01', to_date: '2026-10-31' },
    build: (value) => ({
      request: { service: 'invoice', member: value('member'), account: value('account'), from_invoice_date: value('from_date'), to_invoice_date: value('to_date') },
      response: { status: 'success', invoices: eachLike(invoice(value as Value)) },
    }),
  }),
  interaction({
    description: 'an invoice by invoice number',
    operation: 'invoice',
    state: 'an account has an invoice with a number',
    params: { ...northside, invoice_number: 'INV-100405' },
    build: (value) => ({
      request: { service: 'invoice', member: value('member'), account: value('account'), invoice_number: value('invoice_number') },
      response: { status: 'success', invoices: eachLike(invoice(value as Value, { invoice_number: value('invoice_number') })) },
    }),
  }),
  interaction({
    description: 'invoices by PO number',
    operation: 'invoice',
    state: 'an account has an invoice for a PO number',
    params: { ...northside, po_number: 'PO-7005' },
    build: (value) => ({
      request: { service: 'invoice', member: value('member'), account: value('account'), po_number: value('po_number') },
      response: { status: 'success', invoices: eachLike(invoice(value as Value, { po_number: value('po_number') })) },
    }),
  }),
  interaction({
    description: 'statements by date range, with their detail lines',
    operation: 'statement',
    state: 'an account has statements in a date range',
    params: { ...northside, from_date: '2026-09-01', to_date: '2026-10-31' },
    build: (value) => ({
      request: { service: 'statement', member: value('member'), account: value('account'), from_statement_date: value('from_date'), to_statement_date: value('to_date') },
      response: {
        status: 'success',
        statements: eachLike({
          statement_date: regex(DATE, '2026-09-30'),
          account_id: value('account'),
          total_cost: number(0),
          statement_detail: eachLike({
            invoice_date: regex(DATE, '2026-09-26'),
            invoice_number: string('INV-100403'),
            original_amount: number(5.57),
            paid_amount: number(5.57),
          }),
        }),
      },
    }),
  }),
];
