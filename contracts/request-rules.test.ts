import { describe, it, expect } from 'vitest';
import {
  invoiceRequestRules,
  itemInquiryRequestRules,
  placeOrderRequestRules,
  statementRequestRules,
  usersCreateRequestRules,
} from './request-rules';
import { loadFixture } from './payload-examples';

describe('request rules', () => {
  it('pass every fixture', () => {
    expect(itemInquiryRequestRules(loadFixture('item-inquiry', 'buyer-request'))).toEqual([]);
    expect(placeOrderRequestRules(loadFixture('place-order', 'buyer-request'))).toEqual([]);
    expect(invoiceRequestRules(loadFixture('invoice', 'buyer-request'))).toEqual([]);
    expect(statementRequestRules(loadFixture('statement', 'buyer-request'))).toEqual([]);
    expect(usersCreateRequestRules(loadFixture('users-create', 'request'))).toEqual([]);
  });

  it('item inquiry: a repeated item id is named at its second place', () => {
    const body = loadFixture('item-inquiry', 'buyer-request');
    body.items[2].id = body.items[0].id;
    expect(itemInquiryRequestRules(body)).toEqual([
      { keyword: 'rule', path: '/items/2/id', message: "duplicate item id 'item-1' (also at /items/0/id)" },
    ]);
  });

  it('place order: a repeated item id is named', () => {
    const body = loadFixture('place-order', 'buyer-request');
    body.items[1].id = body.items[0].id;
    expect(placeOrderRequestRules(body).map((i) => i.path)).toEqual(['/items/1/id']);
  });

  it('invoice: from after to is an error on the from field; equal dates are fine', () => {
    const body = loadFixture('invoice', 'buyer-request');
    body.from_invoice_date = '2026-03-01';
    expect(invoiceRequestRules(body).map((i) => i.path)).toEqual(['/from_invoice_date']);
    body.to_invoice_date = '2026-03-01';
    expect(invoiceRequestRules(body)).toEqual([]);
    delete body.to_invoice_date;
    expect(invoiceRequestRules(body)).toEqual([]);
  });

  it('statement: from after to is an error', () => {
    const body = loadFixture('statement', 'buyer-request');
    body.from_statement_date = '2026-03-01';
    expect(statementRequestRules(body)).toEqual([
      {
        keyword: 'rule',
        path: '/from_statement_date',
        message: 'from_statement_date 2026-03-01 is after to_statement_date 2026-02-28',
      },
    ]);
  });

  describe('users-create locations', () => {
    const fixture = () => loadFixture('users-create', 'request');

    it('needs a primary location (sort_order 1)', () => {
      const body = fixture();
      body.locations = body.locations.filter((l: { sort_order: number }) => l.sort_order !== 1);
      expect(usersCreateRequestRules(body)).toEqual([
        { keyword: 'rule', path: '/locations', message: 'one location must have sort_order 1 (the primary location)' },
      ]);
    });

    it('the primary location must be able to order', () => {
      const body = fixture();
      body.locations[0].can_order = false;
      expect(usersCreateRequestRules(body).map((i) => i.path)).toEqual(['/locations/0/can_order']);
    });

    it('sort_order values are unique', () => {
      const body = fixture();
      body.locations[2].sort_order = 2;
      expect(usersCreateRequestRules(body)).toEqual([
        { keyword: 'rule', path: '/locations/2/sort_order', message: 'sort_order 2 is also used at /locations/1' },
      ]);
    });

    it('a second primary is a duplicate sort_order', () => {
      const body = fixture();
      body.locations[1].sort_order = 1;
      expect(usersCreateRequestRules(body).map((i) => i.path)).toEqual(['/locations/1/sort_order']);
    });
  });
});
