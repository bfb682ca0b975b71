import {
  ItemOrderStatus,
  OrderType,
  OverallStatus,
  type OrderItemResult,
  type PlaceOrderSellerReply,
  type PlaceOrderSellerRequest,
} from '../contracts/index';
import type { SellerData } from './seller-data';

// Place order: received while stock suffices (stock goes down), backorder when it does
// not, failure for a part or location the seller does not know.

export const ORDER_TYPE_UNKNOWN_NOTE = 'Note: order type 0 (unknown) was processed as a standard order';

export interface PlacedOrder {
  order_number: string;
  placed_at: string;
  request: PlaceOrderSellerRequest;
  reply: PlaceOrderSellerReply;
}

export function answerPlaceOrder(
  data: SellerData,
  request: PlaceOrderSellerRequest,
  orderNumber: string,
): PlaceOrderSellerReply {
  const items: OrderItemResult[] = request.items.map((item) => {
    const answer = (status_code: number, comment: string): OrderItemResult => ({
      id: item.id,
      status_code,
      quantity_ordered: item.quantity_ordered,
      comment,
    });
    const indexed = data.findPart(item.mfr_code, item.part_number);
    if (indexed === undefined)
      return answer(ItemOrderStatus.Failure, `Unknown part ${item.mfr_code} ${item.part_number}`);
    if (data.findLocation(item.location_id) === undefined)
      return answer(ItemOrderStatus.Failure, `Unknown location ${item.location_id}`);
    const stock = indexed.stock.get(item.location_id);
    const available = stock?.quantity_available ?? 0;
    if (stock === undefined || available < item.quantity_ordered) {
      return answer(
        ItemOrderStatus.Backorder,
        `Backordered: ${item.quantity_ordered} ordered, ${available} available at ${item.location_id}`,
      );
    }
    stock.quantity_available = available - item.quantity_ordered;
    return answer(ItemOrderStatus.Received, `Received at ${item.location_id}`);
  });
  const reply: PlaceOrderSellerReply = { order_number: orderNumber, status_code: OverallStatus.Success, items };
  if (request.order_type === OrderType.Unknown) {
    reply.comment = request.comment ? `${request.comment} | ${ORDER_TYPE_UNKNOWN_NOTE}` : ORDER_TYPE_UNKNOWN_NOTE;
  } else if (request.comment) {
    reply.comment = request.comment;
  }
  return reply;
}

/** Order numbers unique across restarts: a start stamp, then a counter that reset keeps. */
export function orderNumbers(now = Date.now()): () => string {
  const stamp = now.toString(36).toUpperCase();
  let next = 1;
  return () => `SO-${stamp}-${String(next++).padStart(5, '0')}`;
}
