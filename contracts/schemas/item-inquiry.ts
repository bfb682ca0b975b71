import { Type, type Static } from '@sinclair/typebox';
import { ItemStatus, LocationType, OverallStatus } from '../codes';
import {
  Closed,
  CodeOf,
  Formatted,
  Id,
  Int4,
  ListOf,
  MAX_REPLY_NUMBER,
  NonNegativeFloat,
  Open,
  ReplyId,
  ReplyText,
  Text,
} from './common';

// Item inquiry: pricing and availability. Four views of one exchange.

export const LocationRef = Closed({
  id: Id('Location ID in the member network'),
  member: Id('Member ID in the member network'),
  account: Id('Account ID in the member system'),
});
export type LocationRef = Static<typeof LocationRef>;

export const RequestedItem = Closed({
  id: Id('Unique ID assigned by the seller system; echoed in the reply'),
  mfr_code: Id('Manufacturer code'),
  part_number: Id('Part number'),
});
export type RequestedItem = Static<typeof RequestedItem>;

export const ItemInquiryBuyerRequest = Closed(
  {
    items: ListOf(RequestedItem, { minItems: 1, description: 'Items to look up' }),
    locations: Type.Optional(ListOf(LocationRef, { description: "Subset of the buyer's locations; all when omitted" })),
  },
  { title: 'Item inquiry — buyer request' },
);
export type ItemInquiryBuyerRequest = Static<typeof ItemInquiryBuyerRequest>;

export const ItemInquirySellerRequest = Closed(
  {
    service: Type.Literal('item_inquiry'),
    integration: Type.Optional(Text()),
    terminal_id: Type.Optional(Text()),
    locations: ListOf(LocationRef, { minItems: 1 }),
    items: ListOf(RequestedItem, { minItems: 1 }),
  },
  { title: 'Item inquiry — forwarded seller request' },
);
export type ItemInquirySellerRequest = Static<typeof ItemInquirySellerRequest>;

export const RouteTime = Open({
  cutoff_time: Formatted('route-time'),
  arrival_time: Formatted('route-time'),
  pickup_time: Formatted('route-time'),
  route_code: ReplyText(),
});
export type RouteTime = Static<typeof RouteTime>;

const sellerLocationFields = {
  id: ReplyId(),
  type: Type.Optional(CodeOf(LocationType, '1 store, 2 warehouse')),
  cost: NonNegativeFloat(),
  list: NonNegativeFloat(),
  core: Type.Optional(NonNegativeFloat()),
  bundle_cost: Type.Optional(NonNegativeFloat()),
  // Sellers have pack codes of their own: a code outside the common list is a note, not an error.
  pack_code: ReplyId('Pack code, e.g. EA, BX, CS'),
  pack_quantity: Type.Integer({ minimum: 0, maximum: MAX_REPLY_NUMBER }),
  quantity_available: NonNegativeFloat(),
  route_times: Type.Optional(ListOf(RouteTime)),
};

export const SellerItemLocation = Open(sellerLocationFields);
export type SellerItemLocation = Static<typeof SellerItemLocation>;

export const BuyerItemLocation = Open({
  ...sellerLocationFields,
  description: Type.Optional(ReplyText()),
  can_order: Type.Optional(Type.Boolean()),
  sort_order: Type.Optional(Int4()),
});
export type BuyerItemLocation = Static<typeof BuyerItemLocation>;

const itemResultFields = {
  id: ReplyId('Equals the id the buyer sent'),
  mfr_code: ReplyId(),
  part_number: ReplyId(),
  original_part: Type.Optional(ReplyId('Requested part number; required on alternate, superseded, equivalent')),
  original_mfr: Type.Optional(ReplyId('Requested manufacturer code; required on alternate, superseded, equivalent')),
  part_description: Type.Optional(ReplyText()),
  mfr_description: Type.Optional(ReplyText()),
  comment: Type.Optional(ReplyText()),
  weight: Type.Optional(NonNegativeFloat()),
  fee: Type.Optional(NonNegativeFloat()),
  status_code: CodeOf(ItemStatus, '0 not found, 1 found, 2 alternate, 3 superseded, 4 equivalent'),
};

export const SellerItemResult = Open({ ...itemResultFields, locations: ListOf(SellerItemLocation) });
export type SellerItemResult = Static<typeof SellerItemResult>;

export const BuyerItemResult = Open({ ...itemResultFields, locations: ListOf(BuyerItemLocation) });
export type BuyerItemResult = Static<typeof BuyerItemResult>;

export const ItemInquirySellerReply = Open(
  { status_code: CodeOf(OverallStatus), items: ListOf(SellerItemResult) },
  { title: 'Item inquiry — seller reply' },
);
export type ItemInquirySellerReply = Static<typeof ItemInquirySellerReply>;

export const ItemInquiryBuyerReply = Open(
  { status_code: CodeOf(OverallStatus), items: ListOf(BuyerItemResult) },
  { title: 'Item inquiry — buyer reply' },
);
export type ItemInquiryBuyerReply = Static<typeof ItemInquiryBuyerReply>;
