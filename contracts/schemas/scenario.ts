import { Type, type Static } from '@sinclair/typebox';
import { LocationType } from '../codes';
import {
  CalendarDate,
  Closed,
  CodeOf,
  Id,
  ListOf,
  MAX_INT4,
  MAX_TEXT_LENGTH,
  NonNegativeFloat,
  SignedFloat,
  Text,
} from './common';
import { RouteTime, SellerItemLocation } from './item-inquiry';
import { InvoiceDetail } from './invoice';
import { StatementDetail } from './statement';

// A mock-seller scenario: the data a seller system holds. The reply shapes come from the
// payload schemas; fields the mock derives (ids it echoes, link_url, account_id on
// documents, location descriptions) are not repeated here. Closed objects: a typo in a
// scenario file is an error naming the field, not a silently ignored key.

export const ScenarioMember = Closed({
  id: Id('Member ID in the member network, e.g. M100'),
  name: Text(),
});
export type ScenarioMember = Static<typeof ScenarioMember>;

export const ScenarioLocation = Closed({
  id: Id('Location ID in the member network, e.g. L101'),
  member: Id('The member this location belongs to'),
  description: Text(),
  type: CodeOf(LocationType, '1 store, 2 warehouse'),
  route_times: Type.Optional(ListOf(RouteTime, { description: 'Sent with every stocked part at this location' })),
});
export type ScenarioLocation = Static<typeof ScenarioLocation>;

// Price and availability of a part at one location: the seller reply's location data
// without the fields the mock fills from the location itself.
const { id: _id, type: _type, route_times: _routes, ...stockFields } = SellerItemLocation.properties;
export const ScenarioStock = Closed({
  location_id: Id(),
  ...stockFields,
});
export type ScenarioStock = Static<typeof ScenarioStock>;

export const RelationKind = Type.Union([
  Type.Literal('alternate'),
  Type.Literal('superseded'),
  Type.Literal('equivalent'),
]);
export type RelationKind = Static<typeof RelationKind>;

/** Another part of the scenario offered with this one (item status 2, 3 or 4). */
export const ScenarioRelation = Closed({
  kind: RelationKind,
  mfr_code: Id(),
  part_number: Id(),
});
export type ScenarioRelation = Static<typeof ScenarioRelation>;

export const ScenarioPart = Closed({
  mfr_code: Id('Manufacturer code'),
  part_number: Id(),
  mfr_description: Type.Optional(Text()),
  part_description: Type.Optional(Text()),
  comment: Type.Optional(Text(undefined, MAX_TEXT_LENGTH)),
  weight: Type.Optional(NonNegativeFloat()),
  fee: Type.Optional(NonNegativeFloat()),
  stock: ListOf(ScenarioStock, { description: 'One entry per location that carries the part' }),
  related: Type.Optional(ListOf(ScenarioRelation)),
});
export type ScenarioPart = Static<typeof ScenarioPart>;

export const ScenarioInvoice = Closed({
  invoice_number: Id(),
  invoice_date: CalendarDate(),
  location_id: Id(),
  po_number: Text(),
  invoice_type: Type.Optional(Id('Matched by the invoice_type filter')),
  item_count: SignedFloat(),
  total_cost: SignedFloat(),
  invoice_detail: ListOf(InvoiceDetail),
});
export type ScenarioInvoice = Static<typeof ScenarioInvoice>;

export const ScenarioStatement = Closed({
  statement_date: CalendarDate(),
  location_id: Type.Optional(Id()),
  statement_type: Type.Optional(Id('Matched by the statement_type filter')),
  total_cost: SignedFloat(),
  statement_detail: ListOf(StatementDetail),
});
export type ScenarioStatement = Static<typeof ScenarioStatement>;

export const ScenarioAccount = Closed({
  member: Id(),
  id: Id('Account ID in the member system, e.g. A-1001'),
  description: Text(),
  invoices: ListOf(ScenarioInvoice),
  statements: ListOf(ScenarioStatement),
});
export type ScenarioAccount = Static<typeof ScenarioAccount>;

// How the seller behaves under load (mock seller only): a capacity model and a cross-talk
// fault, both seeded. A real seller's p99 grows with its queue and shared-state bugs show only
// when requests overlap; this is how the mock is made to do both, for verify --load to find.
/** A service time past ten minutes is no model of a seller, only a hang (use a fault for that). */
const MAX_SERVICE_MS = 600_000;

export const ScenarioServiceTime = Closed(
  {
    distribution: Type.Optional(
      Type.Union([Type.Literal('fixed'), Type.Literal('uniform'), Type.Literal('log-normal')], {
        description: 'default fixed',
      }),
    ),
    ms: Type.Optional(
      Type.Integer({ minimum: 0, maximum: MAX_SERVICE_MS, description: 'fixed: every request takes this long' }),
    ),
    min_ms: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_SERVICE_MS, description: 'uniform: lower bound' })),
    max_ms: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_SERVICE_MS, description: 'uniform: upper bound' })),
    median_ms: Type.Optional(
      Type.Integer({ minimum: 0, maximum: MAX_SERVICE_MS, description: 'log-normal: the median' }),
    ),
    sigma: Type.Optional(Type.Number({ minimum: 0, maximum: 5, description: 'log-normal: the spread (default 0.5)' })),
  },
  { description: "How long a worker spends on one request, drawn from the load section's seed" },
);
export type ScenarioServiceTime = Static<typeof ScenarioServiceTime>;

export const ScenarioCrossTalk = Closed(
  {
    above: Type.Integer({
      minimum: 1,
      maximum: MAX_INT4,
      description: 'Strikes only while more than this many requests are in flight (queued or served)',
    }),
    mix: Type.Union([Type.Literal('item-id'), Type.Literal('original-part')], {
      description:
        "item-id: an entry's id is taken from another request in flight; original-part: an alternate's original_part is",
    }),
    probability: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: 1,
        description: 'Share of the replies it strikes past the threshold (default 1)',
      }),
    ),
  },
  { description: 'A shared-state bug: replies take values from other requests in flight' },
);
export type ScenarioCrossTalk = Static<typeof ScenarioCrossTalk>;

export const ScenarioStall = Closed(
  {
    every_ms: Type.Integer({
      minimum: 1,
      maximum: MAX_SERVICE_MS,
      description: 'The period: a stall closes every period, counted from the scenario being loaded',
    }),
    for_ms: Type.Integer({
      minimum: 1,
      maximum: MAX_SERVICE_MS,
      description: 'How long each stall lasts (below every_ms); a request arriving in one waits for it to end',
    }),
  },
  {
    description: 'The seller stops answering for for_ms at the end of every every_ms (a GC pause, a lock, a failover)',
  },
);
export type ScenarioStall = Static<typeof ScenarioStall>;

export const ScenarioLoad = Closed(
  {
    workers: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_INT4,
        description: 'Requests served at once; more wait in a queue (first come, first served). Unlimited when omitted',
      }),
    ),
    service_time: Type.Optional(ScenarioServiceTime),
    seed: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: MAX_INT4,
        description: 'Seeds the service times and the cross-talk draws (default 0)',
      }),
    ),
    cross_talk: Type.Optional(ScenarioCrossTalk),
    stall: Type.Optional(ScenarioStall),
  },
  { description: 'Mock seller only: how it behaves under concurrency (see mock-seller/README.md, "Load")' },
);
export type ScenarioLoad = Static<typeof ScenarioLoad>;

export const Scenario = Closed(
  {
    $schema: Type.Optional(
      Text(
        'The JSON Schema of scenario files (contracts/json-schema/mock-seller.scenario.schema.json), for editors; the mock ignores it',
      ),
    ),
    name: Id(),
    description: Type.Optional(Text(undefined, MAX_TEXT_LENGTH)),
    recorded_on: Type.Optional(
      CalendarDate(
        'The day route times were recorded (npm run record): the mock shifts them by the days from it to today',
      ),
    ),
    members: ListOf(ScenarioMember, { minItems: 1 }),
    locations: ListOf(ScenarioLocation, { minItems: 1 }),
    parts: ListOf(ScenarioPart),
    accounts: ListOf(ScenarioAccount),
    load: Type.Optional(ScenarioLoad),
  },
  { title: 'Mock seller scenario' },
);
export type Scenario = Static<typeof Scenario>;
