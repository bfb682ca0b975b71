import type { ValidationIssue } from './validator';
import type { ItemInquiryBuyerRequest } from './schemas/item-inquiry';
import type { PlaceOrderBuyerRequest } from './schemas/place-order';
import type { InvoiceBuyerRequest } from './schemas/invoice';
import type { StatementBuyerRequest } from './schemas/statement';
import type { UsersCreateRequest } from './schemas/users-create';

// Cross-field rules of requests that a JSON Schema cannot say. Run after the schema passed;
// the issues have the validator's shape so callers report both in one list.

const issue = (path: string, message: string): ValidationIssue => ({ keyword: 'rule', path, message });

/** Item ids must be unique: the seller echoes them, so a repeat makes the reply ambiguous. */
function uniqueItemIds(items: { id: string }[]): ValidationIssue[] {
  const first = new Map<string, number>();
  const out: ValidationIssue[] = [];
  items.forEach((item, i) => {
    const seen = first.get(item.id);
    if (seen === undefined) first.set(item.id, i);
    else out.push(issue(`/items/${i}/id`, `duplicate item id '${item.id}' (also at /items/${seen}/id)`));
  });
  return out;
}

function dateOrder(
  from: string | undefined,
  to: string | undefined,
  fromField: string,
  toField: string,
): ValidationIssue[] {
  return from !== undefined && to !== undefined && from > to
    ? [issue(`/${fromField}`, `${fromField} ${from} is after ${toField} ${to}`)]
    : [];
}

export const itemInquiryRequestRules = (request: ItemInquiryBuyerRequest) => uniqueItemIds(request.items);
export const placeOrderRequestRules = (request: PlaceOrderBuyerRequest) => uniqueItemIds(request.items);
export const invoiceRequestRules = (r: InvoiceBuyerRequest) =>
  dateOrder(r.from_invoice_date, r.to_invoice_date, 'from_invoice_date', 'to_invoice_date');
export const statementRequestRules = (r: StatementBuyerRequest) =>
  dateOrder(r.from_statement_date, r.to_statement_date, 'from_statement_date', 'to_statement_date');

/** Locations: exactly one primary (sort_order 1) which can order; sort_order values unique. */
export function usersCreateRequestRules(request: UsersCreateRequest): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  const seen = new Map<number, number>();
  request.locations.forEach((location, i) => {
    const before = seen.get(location.sort_order);
    if (before !== undefined)
      out.push(
        issue(`/locations/${i}/sort_order`, `sort_order ${location.sort_order} is also used at /locations/${before}`),
      );
    else seen.set(location.sort_order, i);
  });
  const primary = request.locations.findIndex((l) => l.sort_order === 1);
  if (primary === -1) out.push(issue('/locations', 'one location must have sort_order 1 (the primary location)'));
  else if (!request.locations[primary].can_order)
    out.push(issue(`/locations/${primary}/can_order`, 'the primary location (sort_order 1) must have can_order true'));
  return out;
}
