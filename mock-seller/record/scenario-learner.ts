import {
  DOCUMENT_STATUS_SUCCESS,
  ItemOrderStatus,
  ItemStatus,
  LocationType,
  type InvoiceSellerReply,
  type InvoiceSellerRequest,
  type ItemInquirySellerReply,
  type ItemInquirySellerRequest,
  type PlaceOrderSellerReply,
  type PlaceOrderSellerRequest,
  type SellerItemLocation,
  type SellerItemResult,
  type StatementSellerReply,
  type StatementSellerRequest,
} from '../../contracts/index';
import type {
  RelationKind,
  Scenario,
  ScenarioInvoice,
  ScenarioLocation,
  ScenarioPart,
  ScenarioRelation,
  ScenarioStatement,
} from '../../contracts/schemas/scenario';
import { partKey } from '../scenario-file';
import {
  newStock,
  observeQuantity,
  observeReceived,
  stockRecord,
  type LearnedStock,
  type StockPrices,
} from './learned-stock';
import { mergeInOrder } from './merge-in-order';

// What a seller holds, learned from its answers: members, locations (type, route times),
// parts (descriptions, prices and stock per location, related parts in the order the seller
// lists them), accounts with invoices and statements. Only answers with HTTP 200 and a
// JSON body teach anything; an unknown part (status 0), a failed order line or an unknown
// account adds nothing, so the replay answers them the same way. Fields the scenario cannot
// hold are counted in `dropped`, so the recorder can say what a replay will lack.

const RELATION_OF: Record<number, RelationKind> = {
  [ItemStatus.Alternate]: 'alternate',
  [ItemStatus.Superseded]: 'superseded',
  [ItemStatus.Equivalent]: 'equivalent',
};

const ENTRY_FIELDS = new Set([
  'id',
  'mfr_code',
  'part_number',
  'original_part',
  'original_mfr',
  'part_description',
  'mfr_description',
  'comment',
  'weight',
  'fee',
  'status_code',
  'locations',
]);
const LOCATION_FIELDS = new Set([
  'id',
  'type',
  'cost',
  'list',
  'core',
  'bundle_cost',
  'pack_code',
  'pack_quantity',
  'quantity_available',
  'route_times',
]);
const INVOICE_FIELDS = new Set([
  'invoice_number',
  'invoice_date',
  'account_id',
  'location_id',
  'location_description',
  'po_number',
  'item_count',
  'total_cost',
  'invoice_detail',
  'link_url',
]);
const STATEMENT_FIELDS = new Set([
  'statement_date',
  'account_id',
  'location_id',
  'account_description',
  'total_cost',
  'link_url',
  'statement_detail',
]);

interface LearnedLocation {
  id: string;
  member: string;
  description?: string;
  type?: number;
  route_times?: ScenarioLocation['route_times'];
}

interface LearnedPart {
  mfr_code: string;
  part_number: string;
  fields: Partial<Pick<ScenarioPart, 'mfr_description' | 'part_description' | 'comment' | 'weight' | 'fee'>>;
  stock: Map<string, LearnedStock>;
  related: ScenarioRelation[];
}

interface LearnedAccount {
  member: string;
  id: string;
  description?: string;
  invoices: ScenarioInvoice[];
  statements: ScenarioStatement[];
}

export interface ScenarioLearner {
  /** One exchange, in the order the seller answered them. */
  learn(request: unknown, httpStatus: number | null, reply: unknown): void;
  /** What was learned so far, as a valid scenario in a stable order; undefined until an answer showed a location. */
  scenario(): Scenario | undefined;
  /** Exchanges that taught something. */
  readonly learned: number;
  /** How much is known so far, for progress lines. */
  counts(): { parts: number; locations: number; accounts: number };
  /** Reply fields the scenario cannot hold, e.g. `item_inquiry /items/*\/warranty`, with how often. */
  readonly dropped: ReadonlyMap<string, number>;
}

export interface ScenarioLearnerOptions {
  name?: string;
  description?: string;
  /** The day the recording was made (YYYY-MM-DD): the replay shifts route times from it to its today. */
  recordedOn: string;
}

const defined = <T extends object>(value: T): T =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
const byKey =
  <T>(key: (item: T) => string) =>
  (a: T, b: T) =>
    key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;

/** Everything learned so far; the steps below each add to it. */
interface LearnedSeller {
  members: Set<string>;
  locations: Map<string, LearnedLocation>;
  parts: Map<string, LearnedPart>;
  accounts: Map<string, LearnedAccount>;
  dropped: Map<string, number>;
}

export function createScenarioLearner(options: ScenarioLearnerOptions): ScenarioLearner {
  const seller: LearnedSeller = {
    members: new Set(),
    locations: new Map(),
    parts: new Map(),
    accounts: new Map(),
    dropped: new Map(),
  };
  let learned = 0;
  return {
    learn(request, httpStatus, reply) {
      if (learnExchange(seller, request, httpStatus, reply)) learned++;
    },
    get learned() {
      return learned;
    },
    counts: () => ({ parts: seller.parts.size, locations: seller.locations.size, accounts: seller.accounts.size }),
    dropped: seller.dropped,
    scenario: () => scenarioOf(seller, options),
  };
}

/**
 * Learns from one exchange; false when it teaches nothing (not
 * a 200 JSON answer, or a service the scenario does not hold).
 */
function learnExchange(seller: LearnedSeller, request: unknown, httpStatus: number | null, reply: unknown): boolean {
  if (
    httpStatus !== 200 ||
    reply === null ||
    typeof reply !== 'object' ||
    request === null ||
    typeof request !== 'object'
  )
    return false;
  switch ((request as { service?: unknown }).service) {
    case 'item_inquiry':
      learnItemInquiry(seller, request as ItemInquirySellerRequest, reply as ItemInquirySellerReply);
      return true;
    case 'place_order':
      learnPlaceOrder(seller, request as PlaceOrderSellerRequest, reply as PlaceOrderSellerReply);
      return true;
    case 'invoice':
      learnInvoices(seller, request as InvoiceSellerRequest, reply as InvoiceSellerReply);
      return true;
    case 'statement':
      learnStatements(seller, request as StatementSellerRequest, reply as StatementSellerReply);
      return true;
    default:
      return false;
  }
}

// What is known, looked up or added.

/** Counts the fields of `value` the scenario cannot hold. */
function countDropped(seller: LearnedSeller, where: string, fields: Set<string>, value: object): void {
  for (const field of Object.keys(value))
    if (!fields.has(field)) seller.dropped.set(`${where}/${field}`, (seller.dropped.get(`${where}/${field}`) ?? 0) + 1);
}

function knownLocation(seller: LearnedSeller, id: string, member: string): LearnedLocation {
  seller.members.add(member);
  let known = seller.locations.get(id);
  if (known === undefined) seller.locations.set(id, (known = { id, member }));
  return known;
}

function knownPart(seller: LearnedSeller, mfrCode: string, partNumber: string): LearnedPart {
  const key = partKey(mfrCode, partNumber);
  let known = seller.parts.get(key);
  if (known === undefined)
    seller.parts.set(
      key,
      (known = { mfr_code: mfrCode, part_number: partNumber, fields: {}, stock: new Map(), related: [] }),
    );
  return known;
}

function stockAt(p: LearnedPart, locationId: string): LearnedStock {
  let stock = p.stock.get(locationId);
  if (stock === undefined) p.stock.set(locationId, (stock = newStock()));
  return stock;
}

function knownAccount(seller: LearnedSeller, member: string, id: string): LearnedAccount {
  seller.members.add(member);
  const key = `${member}\u0000${id}`;
  let known = seller.accounts.get(key);
  if (known === undefined) seller.accounts.set(key, (known = { member, id, invoices: [], statements: [] }));
  return known;
}

// One step per service.

/** A part entry of an item inquiry reply: its fields, and its stock and prices at each forwarded location. */
function learnEntry(seller: LearnedSeller, entry: SellerItemResult, memberOf: Map<string, string>): LearnedPart {
  countDropped(seller, 'item_inquiry /items/*', ENTRY_FIELDS, entry);
  const p = knownPart(seller, entry.mfr_code, entry.part_number);
  const { mfr_description, part_description, comment, weight, fee } = entry;
  p.fields = { ...defined({ mfr_description, part_description, comment, weight, fee }), ...p.fields };
  for (const at of entry.locations as SellerItemLocation[]) {
    const member = memberOf.get(at.id);
    if (member === undefined) continue; // not forwarded: a rule break, nothing to learn
    countDropped(seller, 'item_inquiry /items/*/locations/*', LOCATION_FIELDS, at);
    const place = knownLocation(seller, at.id, member);
    place.type ??= at.type;
    place.route_times ??= at.route_times;
    const { cost, list, core, bundle_cost, pack_code, pack_quantity } = at;
    observeQuantity(
      stockAt(p, at.id),
      defined({ cost, list, core, bundle_cost, pack_code, pack_quantity }) as StockPrices,
      at.quantity_available,
    );
  }
  return p;
}

function learnItemInquiry(
  seller: LearnedSeller,
  request: ItemInquirySellerRequest,
  reply: ItemInquirySellerReply,
): void {
  const memberOf = new Map(request.locations.map((l) => [l.id, l.member]));
  for (const asked of request.items) {
    const entries = reply.items.filter((e) => e.id === asked.id);
    const own = entries.find(
      (e) => e.status_code === ItemStatus.Found && e.mfr_code === asked.mfr_code && e.part_number === asked.part_number,
    );
    if (own === undefined) continue; // unknown to the seller: the replay says so too
    const p = learnEntry(seller, own, memberOf);
    mergeInOrder(p.related, learnRelations(seller, asked, entries, memberOf), (r) =>
      partKey(r.mfr_code, r.part_number),
    );
  }
}

/** The alternates, superseding and equivalent parts answered for one asked part, in the seller's order. */
function learnRelations(
  seller: LearnedSeller,
  asked: ItemInquirySellerRequest['items'][number],
  entries: SellerItemResult[],
  memberOf: Map<string, string>,
): ScenarioRelation[] {
  const relations: ScenarioRelation[] = [];
  for (const entry of entries) {
    const kind = RELATION_OF[entry.status_code];
    // A part is not its own alternate.
    if (kind === undefined || (entry.mfr_code === asked.mfr_code && entry.part_number === asked.part_number)) continue;
    learnEntry(seller, entry, memberOf);
    relations.push({ kind, mfr_code: entry.mfr_code, part_number: entry.part_number });
  }
  return relations;
}

function learnPlaceOrder(seller: LearnedSeller, request: PlaceOrderSellerRequest, reply: PlaceOrderSellerReply): void {
  for (const answered of reply.items) {
    const item = request.items.find((i) => i.id === answered.id);
    if (item === undefined || answered.status_code === ItemOrderStatus.Failure) continue;
    knownLocation(seller, item.location_id, item.member_id);
    const stock = stockAt(knownPart(seller, item.mfr_code, item.part_number), item.location_id);
    // A backorder needs only the part and location to exist (the mock backorders what it lacks).
    if (answered.status_code === ItemOrderStatus.Received) observeReceived(stock, item.quantity_ordered);
  }
}

function learnInvoices(seller: LearnedSeller, request: InvoiceSellerRequest, reply: InvoiceSellerReply): void {
  if (reply.status !== DOCUMENT_STATUS_SUCCESS) return; // an unknown account stays unknown
  const acc = knownAccount(seller, request.member, request.account);
  const seen: ScenarioInvoice[] = reply.invoices.map((inv) => {
    countDropped(seller, 'invoice /invoices/*', INVOICE_FIELDS, inv);
    knownLocation(seller, inv.location_id, request.member).description ??= inv.location_description || undefined;
    const { invoice_number, invoice_date, location_id, po_number, item_count, total_cost, invoice_detail } = inv;
    // A type filter that let the invoice through is the invoice's type.
    return defined({
      invoice_number,
      invoice_date,
      location_id,
      po_number,
      invoice_type: request.invoice_type,
      item_count,
      total_cost,
      invoice_detail,
    });
  });
  mergeInOrder(acc.invoices, seen, (inv) => inv.invoice_number);
  for (const inv of seen) {
    const known = acc.invoices.find((k) => k.invoice_number === inv.invoice_number)!;
    if (known.invoice_type === undefined && inv.invoice_type !== undefined) known.invoice_type = inv.invoice_type;
  }
}

const statementKey = (st: ScenarioStatement) => `${st.statement_date}\u0000${st.location_id ?? ''}`;

function learnStatements(seller: LearnedSeller, request: StatementSellerRequest, reply: StatementSellerReply): void {
  if (reply.status !== DOCUMENT_STATUS_SUCCESS) return;
  const acc = knownAccount(seller, request.member, request.account);
  const seen: ScenarioStatement[] = reply.statements.map((st) => {
    countDropped(seller, 'statement /statements/*', STATEMENT_FIELDS, st);
    acc.description ??= st.account_description || undefined;
    if (st.location_id) knownLocation(seller, st.location_id, request.member);
    const { statement_date, location_id, total_cost, statement_detail } = st;
    return defined({
      statement_date,
      location_id: location_id || undefined,
      statement_type: request.statement_type,
      total_cost,
      statement_detail,
    });
  });
  mergeInOrder(acc.statements, seen, statementKey);
  for (const st of seen) {
    const known = acc.statements.find((k) => statementKey(k) === statementKey(st))!;
    if (known.statement_type === undefined && st.statement_type !== undefined) known.statement_type = st.statement_type;
  }
}

// The scenario, in a stable order.

function scenarioOf(seller: LearnedSeller, options: ScenarioLearnerOptions): Scenario | undefined {
  if (seller.locations.size === 0) return undefined; // a scenario needs a location; none was seen in an answer
  return {
    name: options.name ?? 'recorded',
    ...(options.description === undefined ? {} : { description: options.description }),
    recorded_on: options.recordedOn,
    members: [...seller.members].sort().map((id) => ({ id, name: id })),
    locations: [...seller.locations.values()].sort(byKey((l) => l.id)).map((l) =>
      defined({
        id: l.id,
        member: l.member,
        description: l.description ?? l.id,
        type: l.type ?? LocationType.Store,
        route_times: l.route_times,
      }),
    ),
    parts: [...seller.parts.values()].sort(byKey((p) => partKey(p.mfr_code, p.part_number))).map(scenarioPartOf),
    accounts: [...seller.accounts.values()].sort(byKey((a) => `${a.member}\u0000${a.id}`)).map((a) => ({
      member: a.member,
      id: a.id,
      description: a.description ?? a.id,
      invoices: a.invoices,
      statements: a.statements,
    })),
  };
}

function scenarioPartOf(p: LearnedPart): ScenarioPart {
  return defined({
    mfr_code: p.mfr_code,
    part_number: p.part_number,
    ...p.fields,
    stock: [...p.stock.entries()]
      .sort(byKey(([locationId]) => locationId))
      .map(([locationId, stock]) => stockRecord(locationId, stock))
      .filter((s) => s !== undefined),
    related: p.related.length === 0 ? undefined : p.related,
  });
}
