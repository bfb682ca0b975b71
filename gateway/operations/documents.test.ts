import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../testing/test-gateway';
import { V3_2 } from '../app';

// Invoices and statements: the buyer's own accounts and locations only; errors in the
// documents' own envelope.

interface Envelope {
  status: string;
  error_description?: string;
  status_code?: number;
  invoices?: { account_id: string; invoice_date: string; total_cost: number }[];
  statements?: { account_id: string; statement_date: string }[];
}

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(() => gw.close());

async function ask(operation: 'invoice' | 'statement', body: unknown, user: 'demo' | 'other' = 'demo') {
  const response = await gw.post(`${V3_2}/${operation}`, body, { user });
  return { status: response.status, text: await response.clone().text(), body: (await response.json()) as Envelope };
}

const lastForwarded = (service: string) =>
  gw.seller.seller.journal.entries({ service, limit: 1 })[0]?.request as Record<string, unknown>;

describe('invoice', () => {
  it("defaults the account to the buyer's account at the member and forwards the filters", async () => {
    const { status, body, text } = await ask('invoice', {
      member: 'M100',
      from_invoice_date: '2026-09-01',
      to_invoice_date: '2026-09-30',
    });
    expect(status).toBe(200);
    expect(body.status).toBe('success');
    expect(body.invoices!.length).toBeGreaterThan(0);
    for (const invoice of body.invoices!) {
      expect(invoice.account_id).toBe('A-1001');
      expect(invoice.invoice_date >= '2026-09-01' && invoice.invoice_date <= '2026-09-30').toBe(true);
    }
    expect(lastForwarded('invoice')).toMatchObject({
      service: 'invoice',
      member: 'M100',
      account: 'A-1001',
      from_invoice_date: '2026-09-01',
      to_invoice_date: '2026-09-30',
    });
    expect(text).toMatch(/"item_count":-?\d+\.\d/);
  });

  it('uses the account at the member asked for', async () => {
    await ask('invoice', { member: 'M200' });
    expect(lastForwarded('invoice')).toMatchObject({ member: 'M200', account: 'A-2001' });
  });

  it("refuses another buyer's account with 4403 in the invoice envelope", async () => {
    const { status, body } = await ask('invoice', { member: 'M100', account: 'A-1002' });
    expect(status).toBe(403);
    expect(body).toMatchObject({ status: 'error', status_code: 4403, invoices: [] });
    expect(body.error_description).toContain("account 'A-1002' is not one of your accounts at member 'M100'");
  });

  it("refuses another buyer's location and a member where the buyer holds nothing", async () => {
    expect((await ask('invoice', { member: 'M100', location_id: 'L102' })).body.status_code).toBe(4403);
    expect((await ask('invoice', { member: 'M999' })).body.status_code).toBe(4403);
  });

  it('keeps user other to their own invoices', async () => {
    const { body } = await ask('invoice', { member: 'M100' }, 'other');
    expect(body.invoices!.every((i) => i.account_id === 'A-1002')).toBe(true);
    expect((await ask('invoice', { member: 'M100', account: 'A-1001' }, 'other')).body.status_code).toBe(4403);
  });

  it('validates with 4422 in the invoice envelope', async () => {
    const { status, body } = await ask('invoice', { account: 'A-1001', from_invoice_date: '2026-02-30' });
    expect(status).toBe(422);
    expect(body).toMatchObject({ status: 'error', status_code: 4422, invoices: [] });
    expect(body.error_description).toContain('/member is required');
    expect(body.error_description).toContain('/from_invoice_date');
  });
});

describe('statement', () => {
  it('resolves the member from the account when absent', async () => {
    const { status, body } = await ask('statement', {
      account: 'A-2001',
      from_statement_date: '2026-08-01',
      to_statement_date: '2026-12-31',
    });
    expect(status).toBe(200);
    expect(body.status).toBe('success');
    expect(body.statements!.length).toBeGreaterThan(0);
    expect(body.statements!.every((s) => s.account_id === 'A-2001')).toBe(true);
    expect(lastForwarded('statement')).toMatchObject({ service: 'statement', member: 'M200', account: 'A-2001' });
  });

  it('requires account and both dates, real dates, from before to', async () => {
    const missing = await ask('statement', { from_statement_date: '2026-01-01' });
    expect(missing.body).toMatchObject({ status: 'error', status_code: 4422, statements: [] });
    expect(missing.body.error_description).toContain('/account is required');
    expect(missing.body.error_description).toContain('/to_statement_date is required');
    const unreal = await ask('statement', {
      account: 'A-1001',
      from_statement_date: '2026-02-30',
      to_statement_date: '2026-03-01',
    });
    expect(unreal.body.status_code).toBe(4422);
    const backwards = await ask('statement', {
      account: 'A-1001',
      from_statement_date: '2026-03-01',
      to_statement_date: '2026-02-01',
    });
    expect(backwards.body.status_code).toBe(4422);
    expect(backwards.body.error_description).toContain(
      'from_statement_date 2026-03-01 is after to_statement_date 2026-02-01',
    );
  });

  it("refuses another buyer's account with 4403", async () => {
    const { status, body } = await ask('statement', {
      account: 'A-1002',
      from_statement_date: '2026-08-01',
      to_statement_date: '2026-12-31',
    });
    expect(status).toBe(403);
    expect(body).toMatchObject({ status: 'error', status_code: 4403, statements: [] });
    const other = await ask(
      'statement',
      { account: 'A-1001', member: 'M100', from_statement_date: '2026-08-01', to_statement_date: '2026-12-31' },
      'other',
    );
    expect(other.body.status_code).toBe(4403);
  });
});
