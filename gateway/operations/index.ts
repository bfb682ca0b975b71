import { createItemInquiry } from './item-inquiry';
import { createPlaceOrder } from './place-order';
import { createInvoice } from './invoice';
import { createStatement } from './statement';
import type { OperationDeps } from './operation-deps';

export type { OperationDeps, OperationInput, OperationResult } from './operation-deps';

/** The buyer operations, built once; v3.2 mounts them now, v3.1 can mount the same ones. */
export function createOperations(deps: OperationDeps) {
  return {
    itemInquiry: createItemInquiry(deps),
    placeOrder: createPlaceOrder(deps),
    invoice: createInvoice(deps),
    statement: createStatement(deps),
  };
}

export type Operations = ReturnType<typeof createOperations>;
