// Buyer requests of the seeded demo user (seeds/directory.json), for the benches: what each
// operation sends, valid against the contract. Paths are the v3.2 ones.

export const V3_2_PATH = '/json/federated/v3_2';

export const INQUIRY_ITEMS = [
  { id: 'bench-1', mfr_code: 'WIX', part_number: '51515' },
  { id: 'bench-2', mfr_code: 'NGK', part_number: 'BKR5E' },
  { id: 'bench-3', mfr_code: 'GAT', part_number: '22433' },
];
// Two of demo's locations at one member: one seller call per inquiry.
export const INQUIRY_LOCATIONS = [
  { id: 'L101', member: 'M100', account: 'A-1001' },
  { id: 'L150', member: 'M100', account: 'A-1001' },
];

export const itemInquiryBody = () => ({ items: INQUIRY_ITEMS, locations: INQUIRY_LOCATIONS });

/** One order line at L101; each PO number is a new order (a repeated one would be replayed, not placed). */
export const placeOrderBody = (purchaseOrderNumber: string) => ({
  purchase_order_number: purchaseOrderNumber,
  order_type: 1,
  items: [{ id: '1', mfr_code: 'WIX', part_number: '51515', location_id: 'L101', quantity_ordered: 1 }],
});

export const invoiceBody = () => ({ member: 'M100', from_invoice_date: '2026-09-01', to_invoice_date: '2026-09-30' });

export const statementBody = () => ({
  account: 'A-1001',
  from_statement_date: '2026-08-01',
  to_statement_date: '2026-11-30',
});

export type DemoOperation = 'item_inquiry' | 'place_order' | 'invoice' | 'statement';

/** The gateway's traffic in ten slots: seven inquiries, one each of the others (request i takes slot i % 10). */
export const OPERATION_MIX: readonly DemoOperation[] = [
  'item_inquiry',
  'item_inquiry',
  'place_order',
  'item_inquiry',
  'invoice',
  'item_inquiry',
  'item_inquiry',
  'statement',
  'item_inquiry',
  'item_inquiry',
];

/**
 * The body of `operation`; an order takes `purchaseOrderNumber`
 * (a new one each time: a repeat is replayed, not placed).
 */
export function demoBody(operation: DemoOperation, purchaseOrderNumber: string): object {
  switch (operation) {
    case 'item_inquiry':
      return itemInquiryBody();
    case 'place_order':
      return placeOrderBody(purchaseOrderNumber);
    case 'invoice':
      return invoiceBody();
    case 'statement':
      return statementBody();
  }
}
