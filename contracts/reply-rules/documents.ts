import type { InvoiceSellerReply, InvoiceSellerRequest } from '../schemas/invoice';
import type { StatementSellerReply, StatementSellerRequest } from '../schemas/statement';
import { type RuleCheck, type RuleName, type Violation, violation } from './violation';

// Invoices and statements: what comes back must match what was asked for.
// Dates are YYYY-MM-DD (the schema checks it), so string comparison orders them.

function outsideRange(date: string, from: string | undefined, to: string | undefined): boolean {
  return (from !== undefined && date < from) || (to !== undefined && date > to);
}

function checkEqual(
  out: Violation[],
  rule: RuleName,
  path: string,
  what: string,
  expected: string | undefined,
  found: string | undefined,
) {
  if (expected !== undefined && found !== expected) {
    out.push(
      violation(rule, path, `${what} '${found}' does not match the requested '${expected}'`, { expected, found }),
    );
  }
}

export function checkInvoiceReply(request: InvoiceSellerRequest, reply: InvoiceSellerReply): RuleCheck {
  const violations: Violation[] = [];
  const { from_invoice_date: from, to_invoice_date: to } = request;
  reply.invoices.forEach((invoice, i) => {
    const at = `/invoices/${i}`;
    if (outsideRange(invoice.invoice_date, from, to)) {
      violations.push(
        violation(
          'invoice.date-range',
          `${at}/invoice_date`,
          `invoice date ${invoice.invoice_date} lies outside ${from ?? '…'} – ${to ?? '…'}`,
          {
            expected: { from, to },
            found: invoice.invoice_date,
          },
        ),
      );
    }
    checkEqual(violations, 'invoice.account', `${at}/account_id`, 'account', request.account, invoice.account_id);
    checkEqual(
      violations,
      'invoice.number',
      `${at}/invoice_number`,
      'invoice number',
      request.invoice_number,
      invoice.invoice_number,
    );
    checkEqual(violations, 'invoice.po-number', `${at}/po_number`, 'PO number', request.po_number, invoice.po_number);
    checkEqual(
      violations,
      'invoice.location',
      `${at}/location_id`,
      'location',
      request.location_id,
      invoice.location_id,
    );
    if (
      request.part_number !== undefined &&
      !invoice.invoice_detail.some((line) => line.part_number === request.part_number)
    ) {
      violations.push(
        violation(
          'invoice.part-number',
          `${at}/invoice_detail`,
          `invoice ${invoice.invoice_number} has no line for part '${request.part_number}'`,
          {
            expected: request.part_number,
          },
        ),
      );
    }
  });
  return { violations, notes: [] };
}

export function checkStatementReply(request: StatementSellerRequest, reply: StatementSellerReply): RuleCheck {
  const violations: Violation[] = [];
  const { from_statement_date: from, to_statement_date: to } = request;
  reply.statements.forEach((statement, i) => {
    const at = `/statements/${i}`;
    if (outsideRange(statement.statement_date, from, to)) {
      violations.push(
        violation(
          'statement.date-range',
          `${at}/statement_date`,
          `statement date ${statement.statement_date} lies outside ${from} – ${to}`,
          {
            expected: { from, to },
            found: statement.statement_date,
          },
        ),
      );
    }
    checkEqual(violations, 'statement.account', `${at}/account_id`, 'account', request.account, statement.account_id);
    if (request.location_id !== undefined && statement.location_id !== undefined) {
      checkEqual(
        violations,
        'statement.location',
        `${at}/location_id`,
        'location',
        request.location_id,
        statement.location_id,
      );
    }
  });
  return { violations, notes: [] };
}
