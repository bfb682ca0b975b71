import fc from 'fast-check';
import type { ForwardedOperation } from '../../contracts/reply-check';
import type { InvoiceSellerRequest } from '../../contracts/schemas/invoice';
import type { ItemInquirySellerRequest } from '../../contracts/schemas/item-inquiry';
import type { PlaceOrderSellerRequest } from '../../contracts/schemas/place-order';
import type { StatementSellerRequest } from '../../contracts/schemas/statement';
import type { Catalogue, CatalogueAccount, CatalogueLocation, CataloguePart } from './catalogue';

// fast-check arbitraries of forwarded requests, drawn from the vendor's catalogue: the
// shapes the gateway may forward and a pact's dozen examples do not show (ids with spaces or
// emoji, one part asked under two ids, twenty items, lines that are received, backordered
// and failed in one order, every combination of document filters).

export type ExploreCase =
  | { operation: 'item-inquiry'; request: ItemInquirySellerRequest }
  | { operation: 'place-order'; request: PlaceOrderSellerRequest }
  | { operation: 'invoice'; request: InvoiceSellerRequest }
  | { operation: 'statement'; request: StatementSellerRequest };

export const MAX_ITEMS = 20;

/** Every id shape the schema allows (a non-empty string), weighted towards the usual ones. */
export const itemId = (): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 4, arbitrary: fc.nat(999).map((n) => `item-${n}`) },
    { weight: 2, arbitrary: fc.string({ minLength: 1, maxLength: 16 }) },
    { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 6, unit: 'grapheme' }) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(' ', 'id with spaces', '0', 'ÄÖ-ü', '"quoted"', 'a/b?c=d&e', "it's", '💥', '\t'),
    },
  );

const partOf = (p: CataloguePart) => ({ mfr_code: p.mfr_code, part_number: p.part_number });

/** Known parts, parts with related parts (weighted up: the rules on alternates live there), unknown parts. */
function part(catalogue: Catalogue): fc.Arbitrary<{ mfr_code: string; part_number: string }> {
  const choices: { weight: number; arbitrary: fc.Arbitrary<{ mfr_code: string; part_number: string }> }[] = [];
  if (catalogue.parts.length > 0)
    choices.push({ weight: 4, arbitrary: fc.constantFrom(...catalogue.parts.map(partOf)) });
  if (catalogue.relatedParts.length > 0)
    choices.push({ weight: 3, arbitrary: fc.constantFrom(...catalogue.relatedParts.map(partOf)) });
  if (catalogue.unknownParts.length > 0)
    choices.push({ weight: 1, arbitrary: fc.constantFrom(...catalogue.unknownParts.map(partOf)) });
  return fc.oneof(...choices);
}

const byMember = (locations: CatalogueLocation[]) => {
  const groups = new Map<string, CatalogueLocation[]>();
  for (const l of locations) groups.set(l.member, [...(groups.get(l.member) ?? []), l]);
  return [...groups.values()];
};

/** The forwarded locations: one or several of one member's, in any order. */
const memberLocations = (catalogue: Catalogue) =>
  fc.constantFrom(...byMember(catalogue.locations)).chain((group) => fc.shuffledSubarray(group, { minLength: 1 }));

export function itemInquiry(catalogue: Catalogue): fc.Arbitrary<ItemInquirySellerRequest> {
  const item = fc.record({ id: itemId(), part: part(catalogue) }).map(({ id, part: p }) => ({ id, ...p }));
  return fc
    .record({
      locations: memberLocations(catalogue),
      items: fc.uniqueArray(item, { minLength: 1, maxLength: MAX_ITEMS, selector: (i) => i.id }),
    })
    .map(({ locations, items }) => ({
      service: 'item_inquiry' as const,
      locations: locations.map((l) => ({ id: l.id, member: l.member, account: l.account })),
      items,
    }));
}

export function placeOrder(catalogue: Catalogue): fc.Arbitrary<PlaceOrderSellerRequest> {
  const group = fc.constantFrom(...byMember(catalogue.locations));
  return group
    .chain((locations) => {
      const orderable = locations.filter((l) => catalogue.orderLocations.includes(l.id));
      const where = fc.constantFrom(...(orderable.length > 0 ? orderable : locations));
      // Small quantities are received while stock lasts, a huge one is backordered, an unknown part fails.
      const quantity = fc.oneof(
        { weight: 4, arbitrary: fc.integer({ min: 1, max: 5 }) },
        { weight: 1, arbitrary: fc.constant(99_999) },
      );
      const line = fc
        .record({ id: itemId(), part: part(catalogue), at: where, quantity_ordered: quantity })
        .map(({ id, part: p, at, quantity_ordered }) => ({
          id,
          ...p,
          location_id: at.id,
          quantity_ordered,
          account_id: at.account,
          member_id: at.member,
        }));
      return fc.record({
        purchase_order_number: fc.nat(99_999).map((n) => `PO-EXPLORE-${n}`),
        order_type: fc.constantFrom(0, 1, 2, 3, 4),
        items: fc.uniqueArray(line, { minLength: 1, maxLength: MAX_ITEMS, selector: (l) => l.id }),
      });
    })
    .map((order) => ({ service: 'place_order' as const, ...order }));
}

const DAY_MS = 86_400_000;
const addDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
const daysBetween = (from: string, to: string) => Math.max(0, Math.round((Date.parse(to) - Date.parse(from)) / DAY_MS));

/** A date range reaching a month either side of the account's: from ≤ to. */
function dateRange(range: { from: string; to: string }): fc.Arbitrary<{ from: string; to: string }> {
  const span = daysBetween(range.from, range.to);
  const day = fc.integer({ min: -31, max: span + 31 });
  const drawn = fc
    .tuple(day, day)
    .map(([a, b]) => ({ from: addDays(range.from, Math.min(a, b)), to: addDays(range.from, Math.max(a, b)) }));
  // Half the time the account's whole range, so most replies have documents to check.
  return fc.oneof(fc.constant(range), drawn);
}

/** One of the account's values, or one it does not have. */
const valueOf = (known: string[], unknown: string) =>
  known.length > 0
    ? fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...known) }, { weight: 1, arbitrary: fc.constant(unknown) })
    : fc.constant(unknown);

/** An optional filter, present one time in three: several filters together rarely match anything. */
const sometimes = <T>(arbitrary: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 2, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary });

export function invoice(account: CatalogueAccount): fc.Arbitrary<InvoiceSellerRequest> {
  return fc
    .record({
      invoice_number: sometimes(valueOf(account.invoiceNumbers, 'INV-EXPLORE-NONE')),
      po_number: sometimes(valueOf(account.poNumbers, 'PO-EXPLORE-NONE')),
      dates: fc.option(dateRange(account.invoiceDates), { nil: undefined }),
      location_id: sometimes(valueOf(account.locationIds, 'L-EXPLORE-NONE')),
      part_number: sometimes(valueOf(account.partNumbers, 'PART-EXPLORE-NONE')),
    })
    .map(({ dates, ...filters }) => ({
      service: 'invoice' as const,
      member: account.member,
      account: account.account,
      ...Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== undefined)),
      ...(dates !== undefined ? { from_invoice_date: dates.from, to_invoice_date: dates.to } : {}),
    }));
}

export function statement(account: CatalogueAccount): fc.Arbitrary<StatementSellerRequest> {
  return fc
    .record({
      dates: dateRange(account.statementDates),
      location_id: sometimes(valueOf(account.locationIds, 'L-EXPLORE-NONE')),
    })
    .map(({ dates, location_id }) => ({
      service: 'statement' as const,
      member: account.member,
      account: account.account,
      from_statement_date: dates.from,
      to_statement_date: dates.to,
      ...(location_id !== undefined ? { location_id } : {}),
    }));
}

export const ALL_OPERATIONS: readonly ForwardedOperation[] = ['item-inquiry', 'place-order', 'invoice', 'statement'];

/** Every operation the catalogue can feed, item inquiries most often (they carry most rules). */
export function exploreCase(
  catalogue: Catalogue,
  operations: readonly ForwardedOperation[] = ALL_OPERATIONS,
): fc.Arbitrary<ExploreCase> {
  const choices: { weight: number; arbitrary: fc.Arbitrary<ExploreCase> }[] = [];
  const accounts = catalogue.accounts;
  if (operations.includes('item-inquiry'))
    choices.push({
      weight: 4,
      arbitrary: itemInquiry(catalogue).map((request) => ({ operation: 'item-inquiry' as const, request })),
    });
  if (operations.includes('place-order'))
    choices.push({
      weight: 2,
      arbitrary: placeOrder(catalogue).map((request) => ({ operation: 'place-order' as const, request })),
    });
  if (accounts.length > 0 && operations.includes('invoice'))
    choices.push({
      weight: 1,
      arbitrary: fc
        .constantFrom(...accounts)
        .chain(invoice)
        .map((request) => ({ operation: 'invoice' as const, request })),
    });
  if (accounts.length > 0 && operations.includes('statement'))
    choices.push({
      weight: 1,
      arbitrary: fc
        .constantFrom(...accounts)
        .chain(statement)
        .map((request) => ({ operation: 'statement' as const, request })),
    });
  return fc.oneof(...choices);
}
