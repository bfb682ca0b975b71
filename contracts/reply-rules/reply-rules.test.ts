import { describe, it, expect, afterAll } from 'vitest';
import {
  checkInvoiceReply,
  checkItemInquiryReply,
  checkPlaceOrderReply,
  checkStatementReply,
  RULES,
  type RuleCheck,
} from './index';
import { loadFixture } from '../payload-examples';

// Each rule fires on a reply built to break it, with its name and path, and only it:
// the same reply without the break (the fixture) passes every rule.

const fired = new Set<string>();
const summary = (check: RuleCheck) => {
  for (const v of [...check.violations, ...check.notes]) fired.add(v.rule);
  return {
    violations: check.violations.map((v) => [v.rule, v.path]),
    notes: check.notes.map((v) => [v.rule, v.path]),
  };
};

type Case = [string, (request: any, reply: any) => void, [string, string][], [string, string][]?];

describe('item inquiry reply rules', () => {
  const request = () => loadFixture('item-inquiry', 'seller-request');
  const reply = () => loadFixture('item-inquiry', 'seller-reply');

  it('the fixture pair breaks no rule', () => {
    expect(summary(checkItemInquiryReply(request(), reply()))).toEqual({ violations: [], notes: [] });
  });

  const cases: Case[] = [
    [
      'item.id-echo: a requested id is missing',
      (_q, r) => (r.items = r.items.filter((e: any) => e.id !== 'item-2')),
      [['item.id-echo', '/items']],
    ],
    [
      'item.unknown-id: an id that was not requested',
      (_q, r) => r.items.push({ ...r.items[4], id: 'item-9' }),
      [['item.unknown-id', '/items/5/id']],
    ],
    [
      'item.requested-part-missing: only an alternate for an id',
      (_q, r) => r.items.splice(0, 1),
      [['item.requested-part-missing', '/items']],
    ],
    [
      'item.requested-part-duplicate: the requested part twice',
      (_q, r) => r.items.push(structuredClone(r.items[2])),
      [['item.requested-part-duplicate', '/items']],
    ],
    [
      'item.requested-part-mismatch: status 1 with another part number',
      (_q, r) => (r.items[0].part_number = 'BP-1002'),
      [['item.requested-part-mismatch', '/items/0']],
    ],
    [
      'item.requested-part-mismatch: status 0 with another manufacturer',
      (_q, r) => (r.items[4].mfr_code = 'XYZ'),
      [['item.requested-part-mismatch', '/items/4']],
    ],
    [
      'item.original-mismatch: status 1 naming another original_part',
      (_q, r) => (r.items[0].original_part = 'BP-9'),
      [['item.original-mismatch', '/items/0/original_part']],
    ],
    [
      'item.original-mismatch: status 1 naming another original_mfr',
      (_q, r) => (r.items[2].original_mfr = 'BRK'),
      [['item.original-mismatch', '/items/2/original_mfr']],
    ],
    [
      'item.status-code: an item status outside 0-4',
      (_q, r) => (r.items[1].status_code = 7),
      [['item.status-code', '/items/1/status_code']],
    ],
    [
      'alternate.original-part: differs from the requested part',
      (_q, r) => (r.items[1].original_part = 'BP-1002'),
      [['alternate.original-part', '/items/1/original_part']],
    ],
    [
      'alternate.original-part: missing on a superseded part',
      (_q, r) => delete r.items[3].original_part,
      [['alternate.original-part', '/items/3/original_part']],
    ],
    [
      'alternate.original-mfr: differs from the requested manufacturer',
      (_q, r) => (r.items[1].original_mfr = 'STP'),
      [['alternate.original-mfr', '/items/1/original_mfr']],
    ],
    [
      'alternate.original-mfr: missing on an equivalent part',
      (_q, r) => {
        r.items[1].status_code = 4;
        delete r.items[1].original_mfr;
      },
      [['alternate.original-mfr', '/items/1/original_mfr']],
    ],
    [
      'location.not-forwarded: a location the seller was not asked about',
      (_q, r) => r.items[2].locations.push({ ...r.items[2].locations[0], id: 'L201' }),
      [['location.not-forwarded', '/items/2/locations/2/id']],
    ],
    [
      'location.duplicate: one location twice in an entry',
      (_q, r) => r.items[0].locations.push(structuredClone(r.items[0].locations[0])),
      [['location.duplicate', '/items/0/locations/2/id']],
    ],
    [
      'location.type-code: a location type outside 1-2',
      (_q, r) => (r.items[0].locations[1].type = 5),
      [['location.type-code', '/items/0/locations/1/type']],
    ],
    [
      'reply.status-code: an overall status outside the list',
      (_q, r) => (r.status_code = 2001),
      [['reply.status-code', '/status_code']],
    ],
    [
      'location.pack-code: a seller pack code is a note, not a violation',
      (_q, r) => (r.items[0].locations[0].pack_code = 'DZ'),
      [],
      [['location.pack-code', '/items/0/locations/0/pack_code']],
    ],
  ];

  it.each(cases)('%s', (_name, breakIt, violations, notes = []) => {
    const q = request();
    const r = reply();
    breakIt(q, r);
    expect(summary(checkItemInquiryReply(q, r))).toEqual({ violations, notes });
  });

  it('an alternate may not restate another id: the id it carries decides what it must match', () => {
    const r = reply();
    r.items[1].id = 'item-2';
    expect(summary(checkItemInquiryReply(request(), r)).violations).toEqual([
      ['alternate.original-part', '/items/1/original_part'],
      ['alternate.original-mfr', '/items/1/original_mfr'],
    ]);
  });

  it('a status 0/1 entry may restate the requested original_part/original_mfr', () => {
    const r = reply();
    r.items[0].original_part = 'BP-1001';
    r.items[0].original_mfr = 'BRK';
    expect(checkItemInquiryReply(request(), r).violations).toEqual([]);
  });

  it('an error reply (e.g. 3200 invalid account) may leave the items out', () => {
    expect(checkItemInquiryReply(request(), { status_code: 3200, items: [] }).violations).toEqual([]);
    expect(summary(checkItemInquiryReply(request(), { status_code: 2000, items: [] })).violations).toEqual([
      ['item.id-echo', '/items'],
      ['item.id-echo', '/items'],
      ['item.id-echo', '/items'],
    ]);
  });

  it('a violation says what was expected and what was found', () => {
    const r = reply();
    r.items[1].original_part = 'BP-1002';
    expect(checkItemInquiryReply(request(), r).violations[0]).toMatchObject({
      rule: 'alternate.original-part',
      id: 'item-1',
      expected: 'BP-1001',
      found: 'BP-1002',
      message: "original_part 'BP-1002' differs from the requested part_number 'BP-1001'",
    });
  });
});

describe('place order reply rules', () => {
  const request = () => loadFixture('place-order', 'seller-request');
  const reply = () => loadFixture('place-order', 'seller-reply');

  it('the fixture pair breaks no rule', () => {
    expect(summary(checkPlaceOrderReply(request(), reply()))).toEqual({ violations: [], notes: [] });
  });

  const cases: Case[] = [
    ['order.id-echo: an ordered id is not answered', (_q, r) => r.items.pop(), [['order.id-echo', '/items']]],
    [
      'order.unknown-id: an id that was not ordered',
      (_q, r) => (r.items[1].id = 'line-9'),
      [
        ['order.unknown-id', '/items/1/id'],
        ['order.id-echo', '/items'],
      ],
    ],
    [
      'order.duplicate-id: an id answered twice',
      (_q, r) => r.items.push({ ...r.items[0] }),
      [['order.duplicate-id', '/items/2/id']],
    ],
    [
      'order.item-status: an item order status outside 0-2',
      (_q, r) => (r.items[0].status_code = 3),
      [['order.item-status', '/items/0/status_code']],
    ],
    [
      'reply.status-code: an overall status outside the list',
      (_q, r) => (r.status_code = 1),
      [['reply.status-code', '/status_code']],
    ],
  ];

  it.each(cases)('%s', (_name, breakIt, violations, notes = []) => {
    const q = request();
    const r = reply();
    breakIt(q, r);
    expect(summary(checkPlaceOrderReply(q, r))).toEqual({ violations, notes });
  });

  it('a refused order (3210 credit limit) may list no items', () => {
    expect(checkPlaceOrderReply(request(), { order_number: '', status_code: 3210, items: [] }).violations).toEqual([]);
  });
});

describe('invoice reply rules', () => {
  const request = () => loadFixture('invoice', 'seller-request');
  const reply = () => loadFixture('invoice', 'seller-reply');

  it('the fixture pair breaks no rule', () => {
    expect(summary(checkInvoiceReply(request(), reply()))).toEqual({ violations: [], notes: [] });
  });

  const cases: Case[] = [
    [
      'invoice.date-range: an invoice before the range',
      (_q, r) => (r.invoices[0].invoice_date = '2026-01-31'),
      [['invoice.date-range', '/invoices/0/invoice_date']],
    ],
    [
      'invoice.date-range: an invoice after the range',
      (_q, r) => (r.invoices[1].invoice_date = '2026-03-01'),
      [['invoice.date-range', '/invoices/1/invoice_date']],
    ],
    [
      'invoice.account: another account',
      (_q, r) => (r.invoices[1].account_id = 'A-1002'),
      [['invoice.account', '/invoices/1/account_id']],
    ],
    [
      'invoice.number: not the invoice asked for',
      (q) => (q.invoice_number = 'INV-90017'),
      [['invoice.number', '/invoices/1/invoice_number']],
    ],
    [
      'invoice.po-number: not the PO asked for',
      (q) => (q.po_number = 'PO-2026-0042'),
      [['invoice.po-number', '/invoices/1/po_number']],
    ],
    [
      'invoice.location: not the location asked for',
      (q) => (q.location_id = 'L101'),
      [['invoice.location', '/invoices/1/location_id']],
    ],
    [
      'invoice.part-number: no line for the part asked for',
      (q) => (q.part_number = 'BP-1001'),
      [['invoice.part-number', '/invoices/1/invoice_detail']],
    ],
  ];

  it.each(cases)('%s', (_name, breakIt, violations, notes = []) => {
    const q = request();
    const r = reply();
    breakIt(q, r);
    expect(summary(checkInvoiceReply(q, r))).toEqual({ violations, notes });
  });

  it('without a date range any date passes', () => {
    const q = request();
    delete q.from_invoice_date;
    delete q.to_invoice_date;
    const r = reply();
    r.invoices[0].invoice_date = '2019-05-01';
    expect(checkInvoiceReply(q, r).violations).toEqual([]);
  });
});

describe('statement reply rules', () => {
  const request = () => loadFixture('statement', 'seller-request');
  const reply = () => loadFixture('statement', 'seller-reply');

  it('the fixture pair breaks no rule', () => {
    expect(summary(checkStatementReply(request(), reply()))).toEqual({ violations: [], notes: [] });
  });

  const cases: Case[] = [
    [
      'statement.date-range: a statement outside the range',
      (_q, r) => (r.statements[0].statement_date = '2025-12-31'),
      [['statement.date-range', '/statements/0/statement_date']],
    ],
    [
      'statement.account: another account',
      (_q, r) => (r.statements[0].account_id = 'A-1002'),
      [['statement.account', '/statements/0/account_id']],
    ],
    [
      'statement.location: another location than the filter',
      (q) => (q.location_id = 'L150'),
      [['statement.location', '/statements/0/location_id']],
    ],
  ];

  it.each(cases)('%s', (_name, breakIt, violations, notes = []) => {
    const q = request();
    const r = reply();
    breakIt(q, r);
    expect(summary(checkStatementReply(q, r))).toEqual({ violations, notes });
  });
});

afterAll(() => {
  // Every rule the contract names has a case above that fires it.
  expect([...fired].sort()).toEqual(Object.keys(RULES).sort());
});
