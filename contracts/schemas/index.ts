import type { TSchema } from '@sinclair/typebox';
import * as itemInquiry from './item-inquiry';
import * as placeOrder from './place-order';
import * as invoice from './invoice';
import * as statement from './statement';
import * as usersCreate from './users-create';

export * from './item-inquiry';
export * from './place-order';
export * from './invoice';
export * from './statement';
export * from './users-create';
export * from './gateway-error';
export * from './scenario';

/** Every payload by operation and role; the JSON Schema files and fixtures follow these names. */
export const PAYLOADS = {
  'item-inquiry': {
    'buyer-request': itemInquiry.ItemInquiryBuyerRequest,
    'seller-request': itemInquiry.ItemInquirySellerRequest,
    'seller-reply': itemInquiry.ItemInquirySellerReply,
    'buyer-reply': itemInquiry.ItemInquiryBuyerReply,
  },
  'place-order': {
    'buyer-request': placeOrder.PlaceOrderBuyerRequest,
    'seller-request': placeOrder.PlaceOrderSellerRequest,
    'seller-reply': placeOrder.PlaceOrderSellerReply,
    'buyer-reply': placeOrder.PlaceOrderBuyerReply,
  },
  invoice: {
    'buyer-request': invoice.InvoiceBuyerRequest,
    'seller-request': invoice.InvoiceSellerRequest,
    'seller-reply': invoice.InvoiceSellerReply,
    'buyer-reply': invoice.InvoiceBuyerReply,
  },
  statement: {
    'buyer-request': statement.StatementBuyerRequest,
    'seller-request': statement.StatementSellerRequest,
    'seller-reply': statement.StatementSellerReply,
    'buyer-reply': statement.StatementBuyerReply,
  },
  'users-create': {
    request: usersCreate.UsersCreateRequest,
    reply: usersCreate.UsersCreateReply,
  },
} as const satisfies Record<string, Record<string, TSchema>>;

export type Operation = keyof typeof PAYLOADS;

/** Forwarded operations as the `service` field names them. */
export const SERVICE_OF = {
  'item-inquiry': 'item_inquiry',
  'place-order': 'place_order',
  invoice: 'invoice',
  statement: 'statement',
} as const;
export type Service = (typeof SERVICE_OF)[keyof typeof SERVICE_OF];
export * from './catalog';
