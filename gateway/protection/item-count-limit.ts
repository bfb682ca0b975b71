import type { Operation } from '../http/operation-route';
import { TooManyItemsError } from './protection-errors';

// Items per inquiry and lines per order, counted before the body is validated item by
// item: a 4422 that names the limit, and nothing forwarded or recorded.

export interface ItemCountLimit {
  limit: number;
  /** The rule's name in the error detail, e.g. limit.items-per-inquiry. */
  rule: string;
  /** What is counted, e.g. 'items per item inquiry'. */
  noun: string;
}

export function itemCountLimit(operation: Operation, { limit, rule, noun }: ItemCountLimit): Operation {
  return (input) => {
    const items = (input.body as { items?: unknown } | null)?.items;
    if (Array.isArray(items) && items.length > limit) {
      throw new TooManyItemsError(
        `too many items: ${items.length} ${noun}, the limit is ${limit} (${rule}); split the request`,
        [{ path: '/items', message: `at most ${limit} ${noun}, found ${items.length}`, rule }],
      );
    }
    return operation(input);
  };
}

export const INQUIRY_ITEMS_RULE = 'limit.items-per-inquiry';
export const ORDER_LINES_RULE = 'limit.lines-per-order';
