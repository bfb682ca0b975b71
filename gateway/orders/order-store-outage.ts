import { StoreUnavailableError } from '../errors';

// What a buyer is told when the order store cannot be reached: whether the order was
// certainly not placed (the store failed before the forward) or its state is unknown (it
// failed after the order went to the seller). Both 5503 / 503 with Retry-After.

const po = (number: unknown) => (typeof number === 'string' ? `purchase order '${number}'` : 'the purchase order');

export const orderNotPlaced = (number: unknown) =>
  new StoreUnavailableError(
    `the gateway cannot reach its order store, so ${po(number)} was not sent to the seller and is not placed; retry shortly with the same purchase order number`,
    [{ path: '', message: 'dependency down: store; order not placed' }],
  );

export const orderStateUnknown = (number: unknown) => {
  const error = new StoreUnavailableError(
    `${po(number)} was sent to the seller, but the gateway lost its order store before recording the answer: the order's state is unknown (the seller may have placed it). ` +
      'Retry later with the same purchase order number to get the recorded outcome, or check with the seller; do not send it again under a new number',
    [{ path: '', message: 'dependency down: store; order state unknown' }],
  );
  // The claim stays "forwarded" until it goes stale (member timeout + GATEWAY_ORDER_STALE_MARGIN_MS).
  error.retryAfterSeconds = 60;
  return error;
};
