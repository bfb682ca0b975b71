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
import { newStock, observeQuantity, observeReceived, stockRecord, type LearnedStock, type StockPrices } from './learned-stock';
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
const LOCATION_FIELDS = new Set(['id', 'type', 'cost', 'list', 'core', 'bundle_cost', 'pack_code', 'pack_quantity', 'quantity_available', 'route_times']);
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
const STATEMENT_FIELDS = new Set(['statement_date', 'account_id', 'location_id', 'account_description', 'total_cost', 'link_url', 'statement_detail']);

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

const defined = <T extends object>(value: T): T => Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
const byKey =
  <T>(key: (item: T) => string) =>
  (a: T, b: T) =>
    key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;

export function createScenarioLearner(options: ScenarioLearnerOptions): ScenarioLearner {
  const members = new Set<string>();
  const locations = new Map<string, LearnedLocation>();
  const parts = new Map<string, LearnedPart>();
  const accounts = new Map<string, LearnedAccount>();
  const dropped = new Map<string, number>();
  let learned = 0;

  const drop = (where: string, fields: Set<string>, value: object) => {
    for (const field of Object.keys(value)) if (!fields.has(field)) dropped.set(`${where}/${field}`, (dropped.get(`${where}/${field}`) ?? 0) + 1);
  };

  const location = (id: string, member: string): LearnedLocation => {
    members.add(member);
    let known = locations.get(id);
    if (known === undefined) locations.set(id, (known = { id, member }));
    return known;
  };

  const part = (mfrCode: string, partNumber: string): LearnedPart => {
    const key = partKey(mfrCode, partNumber);
    let known = parts.get(key);
    if (known === undefined) parts.set(key, (known = { mfr_code: mfrCode, part_number: partNumber, fields: {}, stock: new Map(), related: [] }));
    return known;
  };

  const stockAt = (p: LearnedPart, locationId: string): LearnedStock => {
    let stock = p.stock.get(locationId);
    if (stock === undefined) p.stock.set(locationId, (stock = newStock()));
    return stock;
  };

  const account = (member: string, id: string): LearnedAccount => {
    members.add(member);
    const key = `${member}\u0000${id}`;
    let known = accounts.get(key);
    if (known === undefined) accounts.set(key, (known = { member, id, invoices: [], statements: [] }));
    return known;
  };

  function learnEntry(entry: SellerItemResult, memberOf: Map<string, string>): LearnedPart {
    drop('item_inquiry /items/*', ENTRY_FIELDS, entry);
    const p = part(entry.mfr_code, entry.part_number);
    const { mfr_description, part_description, comment, weight, fee } = entry;
    p.fields = { ...defined({ mfr_description, part_description, comment, weight, fee }), ...p.fields };
    for (const at of entry.locations as SellerItemLocation[]) {
      const member = memberOf.get(at.id);
      if (member === undefined) continue; // not forwarded: a rule break, nothing to learn
      drop('item_inquiry /items/*/locations/*', LOCATION_FIELDS, at);
      const place = location(at.id, member);
      place.type ??= at.type;
      place.route_times ??= at.route_times;
      const { cost, list, core, bundle_cost, pack_code, pack_quantity } = at;
      observeQuantity(stockAt(p, at.id), defined({ cost, list, core, bundle_cost, pack_code, pack_quantity }) as StockPrices, at.quantity_available);
    }
    return p;
  }

  function itemInquiry(request: ItemInquirySellerRequest, reply: ItemInquirySellerReply): void {
    const memberOf = new Map(request.locations.map((l) => [l.id, l.member]));
    for (const asked of request.items) {
      const entries = reply.items.filter((e) => e.id === asked.id);
      const own = entries.find((e) => e.status_code === ItemStatus.Found && e.mfr_code === asked.mfr_code && e.part_number === asked.part_number);
      if (own === undefined) continue; // unknown to the seller: the replay says so too
      const p = learnEntry(own, memberOf);
      const relations: ScenarioRelation[] = [];
      for (const entry of entries) {
        const kind = RELATION_OF[entry.status_code];
        if (kind === undefined || (entry.mfr_code === asked.mfr_code && entry.part_number === asked.part_number)) continue; // a part is not its own alternate
        learnEntry(entry, memberOf);
        relations.push({ kind, mfr_code: entry.mfr_code, part_number: entry.part_number });
      }
      mergeInOrder(p.related, relations, (r) => partKey(r.mfr_code, r.part_number));
    }
  }

  function placeOrder(request: PlaceOrderSellerRequest, reply: PlaceOrderSellerReply): void {
    for (const answered of reply.items) {
      const item = request.items.find((i) => i.id === answered.id);
      if (item === undefined || answered.status_code === ItemOrderStatus.Failure) continue;
      location(item.location_id, item.member_id);
      const stock = stockAt(part(item.mfr_code, item.part_number), item.location_id);
      // A backorder needs only the part and location to exist (the mock backorders what it lacks).
      if (answered.status_code === ItemOrderStatus.Received) observeReceived(stock, item.quantity_ordered);
    }
  }

  function invoice(request: InvoiceSellerRequest, reply: InvoiceSellerReply): void {
    if (reply.status !== DOCUMENT_STATUS_SUCCESS) return; // an unknown account stays unknown
    const acc = account(request.member, request.account);
    const seen: ScenarioInvoice[] = reply.invoices.map((inv) => {
      drop('invoice /invoices/*', INVOICE_FIELDS, inv);
      location(inv.location_id, request.member).description ??= inv.location_description || undefined;
      const { invoice_number, invoice_date, location_id, po_number, item_count, total_cost, invoice_detail } = inv;
      // A type filter that let the invoice through is the invoice's type.
      return defined({ invoice_number, invoice_date, location_id, po_number, invoice_type: request.invoice_type, item_count, total_cost, invoice_detail });
    });
    mergeInOrder(acc.invoices, seen, (inv) => inv.invoice_number);
    for (const inv of seen) {
      const known = acc.invoices.find((k) => k.invoice_number === inv.invoice_number)!;
      if (known.invoice_type === undefined && inv.invoice_type !== undefined) known.invoice_type = inv.invoice_type;
    }
  }

  function statement(request: StatementSellerRequest, reply: StatementSellerReply): void {
    if (reply.status !== DOCUMENT_STATUS_SUCCESS) return;
    const acc = account(request.member, request.account);
    const keyOf = (st: ScenarioStatement) => `${st.statement_date}\u0000${st.location_id ?? ''}`;
    const seen: ScenarioStatement[] = reply.statements.map((st) => {
      drop('statement /statements/*', STATEMENT_FIELDS, st);
      acc.description ??= st.account_description || undefined;
      if (st.location_id) location(st.location_id, request.member);
      const { statement_date, location_id, total_cost, statement_detail } = st;
      return defined({ statement_date, location_id: location_id || undefined, statement_type: request.statement_type, total_cost, statement_detail });
    });
    mergeInOrder(acc.statements, seen, keyOf);
    for (const st of seen) {
      const known = acc.statements.find((k) => keyOf(k) === keyOf(st))!;
      if (known.statement_type === undefined && st.statement_type !== undefined) known.statement_type = st.statement_type;
    }
  }

  return {
    learn(request, httpStatus, reply) {
      if (httpStatus !== 200 || reply === null || typeof reply !== 'object' || request === null || typeof request !== 'object') return;
      switch ((request as { service?: unknown }).service) {
        case 'item_inquiry':
          itemInquiry(request as ItemInquirySellerRequest, reply as ItemInquirySellerReply);
          break;
        case 'place_order':
          placeOrder(request as PlaceOrderSellerRequest, reply as PlaceOrderSellerReply);
          break;
        case 'invoice':
          invoice(request as InvoiceSellerRequest, reply as InvoiceSellerReply);
          break;
        case 'statement':
          statement(request as StatementSellerRequest, reply as StatementSellerReply);
          break;
        default:
          return;
      }
      learned++;
    },
    get learned() {
      return learned;
    },
    counts: () => ({ parts: parts.size, locations: locations.size, accounts: accounts.size }),
    dropped,
    scenario() {
      if (locations.size === 0) return undefined; // a scenario needs a location; none was seen in an answer
      return {
        name: options.name ?? 'recorded',
        ...(options.description === undefined ? {} : { description: options.description }),
        recorded_on: options.recordedOn,
        members: [...members].sort().map((id) => ({ id, name: id })),
        locations: [...locations.values()]
          .sort(byKey((l) => l.id))
          .map((l) =>
            defined({ id: l.id, member: l.member, description: l.description ?? l.id, type: l.type ?? LocationType.Store, route_times: l.route_times }),
          ),
        parts: [...parts.values()].sort(byKey((p) => partKey(p.mfr_code, p.part_number))).map((p) =>
          defined({
            mfr_code: p.mfr_code,
            part_number: p.part_number,
            ...p.fields,
            stock: [...p.stock.entries()]
              .sort(byKey(([locationId]) => locationId))
              .map(([locationId, stock]) => stockRecord(locationId, stock))
              .filter((s) => s !== undefined),
            related: p.related.length === 0 ? undefined : p.related,
          }),
        ),
        accounts: [...accounts.values()]
          .sort(byKey((a) => `${a.member}\u0000${a.id}`))
          .map((a) => ({ member: a.member, id: a.id, description: a.description ?? a.id, invoices: a.invoices, statements: a.statements })),
      };
    },
  };
}
