import {
  DOCUMENT_STATUS_ERROR,
  DOCUMENT_STATUS_SUCCESS,
  type Invoice,
  type InvoiceSellerReply,
  type InvoiceSellerRequest,
  type Statement,
  type StatementSellerReply,
  type StatementSellerRequest,
} from '../contracts/index';
import type { ScenarioAccount, ScenarioInvoice, ScenarioStatement } from '../contracts/schemas/scenario';
import type { SellerData } from './seller-data';

// Invoices and statements: every filter of the specification, and a link_url to a copy
// the mock seller serves itself (GET /documents/...). Dates are YYYY-MM-DD, so string
// comparison orders them.

const inRange = (date: string, from?: string, to?: string) =>
  (from === undefined || date >= from) && (to === undefined || date <= to);
const enc = encodeURIComponent;

export const invoicePath = (member: string, account: string, invoiceNumber: string) =>
  `/documents/invoices/${enc(member)}/${enc(account)}/${enc(invoiceNumber)}.txt`;
export const statementPath = (member: string, account: string, statementDate: string) =>
  `/documents/statements/${enc(member)}/${enc(account)}/${enc(statementDate)}.txt`;

function toInvoice(data: SellerData, account: ScenarioAccount, inv: ScenarioInvoice, baseUrl: string): Invoice {
  return {
    invoice_number: inv.invoice_number,
    invoice_date: inv.invoice_date,
    account_id: account.id,
    location_id: inv.location_id,
    location_description: data.findLocation(inv.location_id)?.description ?? '',
    po_number: inv.po_number,
    item_count: inv.item_count,
    total_cost: inv.total_cost,
    invoice_detail: inv.invoice_detail,
    link_url: baseUrl + invoicePath(account.member, account.id, inv.invoice_number),
  };
}

function toStatement(data: SellerData, account: ScenarioAccount, st: ScenarioStatement, baseUrl: string): Statement {
  return {
    statement_date: st.statement_date,
    account_id: account.id,
    location_id: st.location_id,
    account_description: account.description,
    total_cost: st.total_cost,
    link_url: baseUrl + statementPath(account.member, account.id, st.statement_date),
    statement_detail: st.statement_detail,
  };
}

const unknownAccount = (member: string, account: string) => `Unknown account ${account} at member ${member}`;

export function answerInvoice(data: SellerData, request: InvoiceSellerRequest, baseUrl: string): InvoiceSellerReply {
  const account = data.findAccount(request.member, request.account);
  if (account === undefined)
    return {
      status: DOCUMENT_STATUS_ERROR,
      error_description: unknownAccount(request.member, request.account),
      invoices: [],
    };
  const invoices = account.invoices
    .filter(
      (inv) =>
        inRange(inv.invoice_date, request.from_invoice_date, request.to_invoice_date) &&
        (request.invoice_number === undefined || inv.invoice_number === request.invoice_number) &&
        (request.po_number === undefined || inv.po_number === request.po_number) &&
        (request.location_id === undefined || inv.location_id === request.location_id) &&
        (request.invoice_type === undefined || inv.invoice_type === request.invoice_type) &&
        (request.part_number === undefined ||
          inv.invoice_detail.some((line) => line.part_number === request.part_number)),
    )
    .map((inv) => toInvoice(data, account, inv, baseUrl));
  return { status: DOCUMENT_STATUS_SUCCESS, error_description: '', invoices };
}

export function answerStatement(
  data: SellerData,
  request: StatementSellerRequest,
  baseUrl: string,
): StatementSellerReply {
  const account = data.findAccount(request.member, request.account);
  if (account === undefined)
    return {
      status: DOCUMENT_STATUS_ERROR,
      error_description: unknownAccount(request.member, request.account),
      statements: [],
    };
  const statements = account.statements
    .filter(
      (st) =>
        inRange(st.statement_date, request.from_statement_date, request.to_statement_date) &&
        (request.location_id === undefined || st.location_id === request.location_id) &&
        (request.statement_type === undefined || st.statement_type === request.statement_type),
    )
    .map((st) => toStatement(data, account, st, baseUrl));
  return { status: DOCUMENT_STATUS_SUCCESS, error_description: '', statements };
}

const money = (n: number | undefined) => (n === undefined ? '' : n.toFixed(2));

/** A plain-text copy of an invoice, as a seller's document server would hand out. */
export function renderInvoice(
  data: SellerData,
  member: string,
  accountId: string,
  invoiceNumber: string,
): string | undefined {
  const account = data.findAccount(member, accountId);
  const inv = account?.invoices.find((i) => i.invoice_number === invoiceNumber);
  if (account === undefined || inv === undefined) return undefined;
  const lines = inv.invoice_detail.map(
    (l) =>
      `${l.line_code.padEnd(5)} ${l.part_number.padEnd(14)} ${String(l.item_quantity).padStart(4)} ${money(l.list_price).padStart(9)} ${money(l.cost).padStart(9)}  ${l.description ?? ''}`,
  );
  return [
    `INVOICE ${inv.invoice_number}`,
    `Date: ${inv.invoice_date}    PO: ${inv.po_number}`,
    `Account: ${account.id} ${account.description} (member ${member})`,
    `Location: ${inv.location_id} ${data.findLocation(inv.location_id)?.description ?? ''}`,
    '',
    'LINE  PART            QTY      LIST      COST  DESCRIPTION',
    ...lines,
    '',
    `Items: ${inv.item_count}    Total: ${money(inv.total_cost)}`,
    '',
  ].join('\n');
}

export function renderStatement(
  data: SellerData,
  member: string,
  accountId: string,
  statementDate: string,
): string | undefined {
  const account = data.findAccount(member, accountId);
  const st = account?.statements.find((s) => s.statement_date === statementDate);
  if (account === undefined || st === undefined) return undefined;
  const lines = st.statement_detail.map(
    (d) =>
      `${d.invoice_date}  ${(d.invoice_number ?? '').padEnd(12)} ${(d.reference_number ?? '').padEnd(10)} ${money(d.original_amount).padStart(10)} ${money(d.paid_amount).padStart(10)}`,
  );
  return [
    `STATEMENT ${st.statement_date}`,
    `Account: ${account.id} ${account.description} (member ${member})`,
    '',
    'DATE        INVOICE      REFERENCE    ORIGINAL       PAID',
    ...lines,
    '',
    `Balance: ${money(st.total_cost)}`,
    '',
  ].join('\n');
}
