import { ItemOrderStatus, OverallStatus } from '../codes';
import type { PlaceOrderSellerReply, PlaceOrderSellerRequest } from '../schemas/place-order';
import { type RuleCheck, type Violation, violation } from './violation';

const ITEM_ORDER_STATUSES = new Set<number>(Object.values(ItemOrderStatus));
const OVERALL_STATUSES = new Set<number>(Object.values(OverallStatus));

/** Every ordered id answered once, with an item order status from the list. */
export function checkPlaceOrderReply(request: PlaceOrderSellerRequest, reply: PlaceOrderSellerReply): RuleCheck {
  const violations: Violation[] = [];
  if (!OVERALL_STATUSES.has(reply.status_code)) {
    violations.push(
      violation('reply.status-code', '/status_code', `status_code ${reply.status_code} is not an overall status code`, {
        found: reply.status_code,
      }),
    );
  }
  const ordered = new Set(request.items.map((item) => item.id));
  const answered = new Set<string>();
  reply.items.forEach((item, i) => {
    const at = `/items/${i}`;
    if (!ordered.has(item.id)) {
      violations.push(
        violation('order.unknown-id', `${at}/id`, `item id '${item.id}' was not ordered`, {
          id: item.id,
          found: item.id,
        }),
      );
    } else if (answered.has(item.id)) {
      violations.push(
        violation('order.duplicate-id', `${at}/id`, `item id '${item.id}' is answered more than once`, {
          id: item.id,
          found: item.id,
        }),
      );
    }
    answered.add(item.id);
    if (!ITEM_ORDER_STATUSES.has(item.status_code)) {
      violations.push(
        violation(
          'order.item-status',
          `${at}/status_code`,
          `item order status ${item.status_code} is not 0 (failure), 1 (received) or 2 (backorder)`,
          {
            id: item.id,
            found: item.status_code,
          },
        ),
      );
    }
  });
  // A seller refusing the whole order (credit limit, account on hold…) may list no items.
  const success = reply.status_code === OverallStatus.Success;
  for (const id of ordered) {
    if (success && !answered.has(id))
      violations.push(
        violation('order.id-echo', '/items', `ordered item id '${id}' is missing from the reply`, { id, expected: id }),
      );
  }
  return { violations, notes: [] };
}
