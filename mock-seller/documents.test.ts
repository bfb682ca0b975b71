import { describe, it, expect } from 'vitest';
import {
  checkSellerReply,
  type InvoiceSellerReply,
  type InvoiceSellerRequest,
  type StatementSellerReply,
  type StatementSellerRequest,
} from '../contracts/index';
import { createMockSeller } from './index';
import { readDefaultScenario } from './default-scenario';

const seller = createMockSeller(readDefaultScenario());
const scenario = readDefaultScenario();
const account1001 = scenario.accounts.find((a) => a.id === 'A-1001')!;

async function invoices(filters: Partial<InvoiceSellerRequest>) {
  const body: InvoiceSellerRequest = { service: 'invoice', member: 'M100', account: 'A-1001', ...filters };
  const res = await seller.app.request('http://seller.test/seller', { method: 'POST', body: JSON.stringify(body) });
  const reply = (await res.json()) as InvoiceSellerReply;
  expect(checkSellerReply('invoice', body, reply)).toMatchObject({ ok: true });
  return reply;
}

async function statements(filters: Partial<StatementSellerRequest>) {
  const body: StatementSellerRequest = {
    service: 'statement',
    member: 'M100',
    account: 'A-1001',
    from_statement_date: '2026-01-01',
    to_statement_date: '2026-12-31',
    ...filters,
  };
  const res = await seller.app.request('http://seller.test/seller', { method: 'POST', body: JSON.stringify(body) });
  const reply = (await res.json()) as StatementSellerReply;
  expect(checkSellerReply('statement', body, reply)).toMatchObject({ ok: true });
  return reply;
}

describe('invoices', () => {
  it('returns every invoice of the account when no filter is given', async () => {
    const reply = await invoices({});
    expect(reply.status).toBe('success');
    expect(reply.invoices.map((i) => i.invoice_number)).toEqual(account1001.invoices.map((i) => i.invoice_number));
    expect(reply.invoices[0]).toMatchObject({
      account_id: 'A-1001',
      location_description: expect.stringMatching(/^Northside/),
    });
  });

  it('honours the date range, inclusive at both ends', async () => {
    const first = account1001.invoices[1].invoice_date;
    const last = account1001.invoices[4].invoice_date;
    const reply = await invoices({ from_invoice_date: first, to_invoice_date: last });
    const expected = account1001.invoices
      .filter((i) => i.invoice_date >= first && i.invoice_date <= last)
      .map((i) => i.invoice_number);
    expect(expected.length).toBeGreaterThanOrEqual(4);
    expect(reply.invoices.map((i) => i.invoice_number)).toEqual(expected);
  });

  it.each([
    ['invoice_number', (i: (typeof account1001.invoices)[number]) => i.invoice_number],
    ['po_number', (i: (typeof account1001.invoices)[number]) => i.po_number],
    ['location_id', (i: (typeof account1001.invoices)[number]) => i.location_id],
    ['invoice_type', (i: (typeof account1001.invoices)[number]) => i.invoice_type!],
  ] as const)('filters by %s', async (field, valueOf) => {
    const value = valueOf(account1001.invoices[2]);
    const reply = await invoices({ [field]: value });
    const expected = account1001.invoices.filter((i) => valueOf(i) === value).map((i) => i.invoice_number);
    expect(reply.invoices.map((i) => i.invoice_number)).toEqual(expected);
    expect(expected.length).toBeLessThan(account1001.invoices.length);
  });

  it('filters by part number on any invoice line', async () => {
    const part = account1001.invoices[0].invoice_detail[0].part_number;
    const reply = await invoices({ part_number: part });
    expect(reply.invoices.length).toBeGreaterThan(0);
    for (const inv of reply.invoices) expect(inv.invoice_detail.some((l) => l.part_number === part)).toBe(true);
    expect(reply.invoices.length).toBe(
      account1001.invoices.filter((i) => i.invoice_detail.some((l) => l.part_number === part)).length,
    );
  });

  it('keeps the accounts of different members apart', async () => {
    const reply = await invoices({ member: 'M200', account: 'A-1001' });
    expect(reply).toEqual({
      status: 'error',
      error_description: 'Unknown account A-1001 at member M200',
      invoices: [],
    });
  });

  it('links each invoice to a copy the mock seller serves', async () => {
    const [inv] = (await invoices({ invoice_number: account1001.invoices[0].invoice_number })).invoices;
    expect(inv.link_url).toBe(`http://seller.test/documents/invoices/M100/A-1001/${inv.invoice_number}.txt`);
    const res = await seller.app.request(inv.link_url!);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain('attachment');
    const text = await res.text();
    expect(text).toContain(`INVOICE ${inv.invoice_number}`);
    expect(text).toContain(`PO: ${inv.po_number}`);
  });

  it('answers 404 for a document that does not exist', async () => {
    const res = await seller.app.request('/documents/invoices/M100/A-1001/INV-NOPE.txt');
    expect(res.status).toBe(404);
  });
});

describe('statements', () => {
  it('returns the statements within the date range', async () => {
    const reply = await statements({ from_statement_date: '2026-09-01', to_statement_date: '2026-10-31' });
    expect(reply.statements.map((s) => s.statement_date)).toEqual(['2026-09-30', '2026-10-31']);
    expect(reply.statements[0]).toMatchObject({ account_id: 'A-1001', account_description: 'Demo Garage (Northside)' });
  });

  it('filters by statement type and by location', async () => {
    expect((await statements({ statement_type: 'monthly' })).statements).toHaveLength(3);
    expect((await statements({ statement_type: 'weekly' })).statements).toHaveLength(0);
    // The default statements cover the whole account, so a location filter finds none.
    expect((await statements({ location_id: 'L101' })).statements).toHaveLength(0);
  });

  it('links each statement to a downloadable copy', async () => {
    const [st] = (await statements({ from_statement_date: '2026-08-01', to_statement_date: '2026-08-31' })).statements;
    const res = await seller.app.request(st.link_url!);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain(`Balance: ${st.total_cost.toFixed(2)}`);
  });
});
