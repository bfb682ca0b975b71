import { createItemInquiry } from './item-inquiry';
import { createPlaceOrder } from './place-order';
import { createDocumentOperation } from './document';
import type { OperationDeps } from './operation-deps';

export type { OperationDeps, OperationInput, OperationResult } from './operation-deps';

/** The buyer operations, built once; v3.2 and v3.1 mount the same ones. */
export function createOperations(deps: OperationDeps) {
  return {
    itemInquiry: createItemInquiry(deps),
    placeOrder: createPlaceOrder(deps),
    invoice: createDocumentOperation(deps, 'invoice'),
    statement: createDocumentOperation(deps, 'statement'),
  };
}

export type Operations = ReturnType<typeof createOperations>;
