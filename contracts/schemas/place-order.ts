import { Type, type Static } from '@sinclair/typebox';
import { ItemOrderStatus, OrderType, OverallStatus } from '../codes';
import {
  Closed,
  CodeOf,
  Formatted,
  Id,
  ListOf,
  MAX_TEXT_LENGTH,
  NonNegativeFloat,
  Open,
  Quantity,
  StoredReplyId,
  StoredReplyText,
  Text,
} from './common';

// Place order: a purchase order from the buyer, forwarded with account and member per item.

export const ShipTo = Closed({
  company_name: Type.Optional(Text()),
  first_name: Type.Optional(Text()),
  last_name: Type.Optional(Text()),
  title: Type.Optional(Text()),
  phone: Type.Optional(Text(undefined, 50)),
  fax: Type.Optional(Text(undefined, 50)),
  email: Type.Optional(Formatted('email', 'At most 254 characters')),
  address_1: Type.Optional(Text()),
  address_2: Type.Optional(Text()),
  city: Type.Optional(Text()),
  country_division_code: Type.Optional(Text('State or province', 50)),
  country_code: Type.Optional(Formatted('country-code', 'ISO 3166-1 alpha-2')),
  postal: Type.Optional(Text(undefined, 50)),
  tax_code: Type.Optional(Text(undefined, 50)),
});
export type ShipTo = Static<typeof ShipTo>;

const buyerOrderItemFields = {
  id: Id('Unique ID assigned by the seller system; echoed in the reply'),
  mfr_code: Id(),
  part_number: Id(),
  location_id: Id(),
  quantity_ordered: Quantity('Quantity ordered; above zero'),
  vehicle_description: Type.Optional(Text('Needed only if the seller system requires it')),
};

export const BuyerOrderItem = Closed(buyerOrderItemFields);
export type BuyerOrderItem = Static<typeof BuyerOrderItem>;

const orderFields = {
  purchase_order_number: Id('Assigned by the buyer'),
  comment: Type.Optional(Text('Passed to the seller system', MAX_TEXT_LENGTH)),
  order_type: CodeOf(OrderType, '0 unknown, 1 delivery, 2 stock order, 3 will call, 4 must have'),
  ship_to: Type.Optional(ShipTo),
  ship_via: Type.Optional(Text('Shipping method')),
};

export const PlaceOrderBuyerRequest = Closed(
  { ...orderFields, items: ListOf(BuyerOrderItem, { minItems: 1 }) },
  { title: 'Place order — buyer request' },
);
export type PlaceOrderBuyerRequest = Static<typeof PlaceOrderBuyerRequest>;

export const SellerOrderItem = Closed({
  ...buyerOrderItemFields,
  account_id: Id(),
  member_id: Id(),
});
export type SellerOrderItem = Static<typeof SellerOrderItem>;

export const PlaceOrderSellerRequest = Closed(
  {
    service: Type.Literal('place_order'),
    integration: Type.Optional(Text()),
    terminal_id: Type.Optional(Text()),
    ...orderFields,
    items: ListOf(SellerOrderItem, { minItems: 1 }),
  },
  { title: 'Place order — forwarded seller request' },
);
export type PlaceOrderSellerRequest = Static<typeof PlaceOrderSellerRequest>;

// Stored as the order's seller reply and answer (jsonb): no NUL or lone surrogate, or the
// record could not be written; such a reply is refused (5500) and the order left unknown.
export const OrderItemResult = Open({
  id: StoredReplyId('Equals the id the buyer sent'),
  status_code: CodeOf(ItemOrderStatus, '0 failure, 1 received, 2 backorder'),
  quantity_ordered: NonNegativeFloat(),
  comment: Type.Optional(StoredReplyText()),
});
export type OrderItemResult = Static<typeof OrderItemResult>;

const orderResultFields = {
  order_number: StoredReplyText(),
  status_code: CodeOf(OverallStatus),
  comment: Type.Optional(StoredReplyText()),
  items: ListOf(OrderItemResult),
};

export const PlaceOrderSellerReply = Open(orderResultFields, { title: 'Place order — seller reply' });
export type PlaceOrderSellerReply = Static<typeof PlaceOrderSellerReply>;

// The buyer sees the seller's result as it came; the gateway adds nothing to an order.
export const PlaceOrderBuyerReply = Open(orderResultFields, { title: 'Place order — buyer reply' });
export type PlaceOrderBuyerReply = Static<typeof PlaceOrderBuyerReply>;
