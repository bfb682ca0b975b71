import {
  OverallStatus,
  placeOrderRequestRules,
  type PlaceOrderBuyerRequest,
  type PlaceOrderSellerReply,
  type PlaceOrderSellerRequest,
} from '../../contracts/index';
import type { Member, UserLocation } from '../directory/directory';
import {
  type Detail,
  errorReply,
  GatewayError,
  InternalError,
  InvalidLocationError,
  LocationNotAllowedError,
  OrderConflictError,
  OrderInFlightError,
  RequestValidationError,
  SellerDeclinedError,
  SellerNotReachedError,
  SellerAddressRefusedError,
  SellerRefusedError,
  SellerTimeoutError,
} from '../errors';
import { firstDifference } from '../orders/order-difference';
import {
  orderRecords,
  type OrderRecord,
  type OrderRecords,
  type OrderStatus,
  type StoredAnswer,
} from '../orders/order-records';
import { validBuyerRequest } from './buyer-request';
import { userLocationIndex } from './buyer-locations';
import { forwardToSeller, warningLines } from './forward';
import { forwardedCommon, memberOf } from './seller-member';
import { notServing, notServingDetail } from './member-serving';
import type { OperationDeps, OperationInput, OperationResult } from './operation-deps';
import { isStoreUnreachable } from '../store/store-outage';
import { SellerBusyError, SellerCircuitOpenError } from '../protection/protection-errors';
import { orderNotPlaced, orderStateUnknown } from '../orders/order-store-outage';

// Place order: every item at an orderable location of the buyer, all at one seller; the
// order is recorded (and claimed) before it is forwarded, so a retried or concurrent
// duplicate is answered with the first attempt's result instead of ordering again, and a
// different order under the same number is refused (409) while the first stands. An order
// the seller certainly did not place leaves its number free (docs/gateway/answers.md,
// "Orders").

const MAX_IDEMPOTENCY_KEY = 255;
const POLL_MS = 25;

async function resolveItems(
  deps: OperationDeps,
  input: OperationInput,
  request: PlaceOrderBuyerRequest,
): Promise<UserLocation[]> {
  const index = userLocationIndex(input.buyer.user);
  const notFound: Detail[] = [];
  const notAllowed: Detail[] = [];
  const resolved: UserLocation[] = [];
  for (const [i, item] of request.items.entries()) {
    const path = `/items/${i}/location_id`;
    const mine = index.get(item.location_id);
    if (mine === undefined) {
      if ((await deps.directory.findLocation(item.location_id)) === undefined)
        notFound.push({ path, message: `location '${item.location_id}' does not exist` });
      else notAllowed.push({ path, message: `location '${item.location_id}' is not one of your locations` });
    } else if (!mine.canOrder) {
      notAllowed.push({ path, message: `you cannot order from location '${item.location_id}' (can_order is false)` });
    } else {
      resolved.push(mine);
    }
  }
  if (notFound.length > 0)
    throw new InvalidLocationError(notFound.map((d) => d.message).join('; '), [...notFound, ...notAllowed]);
  if (notAllowed.length > 0) throw new LocationNotAllowedError(notAllowed.map((d) => d.message).join('; '), notAllowed);
  const members = new Set(resolved.map((l) => l.memberId));
  if (members.size > 1) {
    throw new RequestValidationError(
      `the items span ${members.size} sellers (${[...members].join(', ')}): one order goes to one seller, so send one place_order per member`,
      resolved.map((l, i) => ({
        path: `/items/${i}/location_id`,
        message: `location '${l.locationId}' is served by member ${l.memberId}`,
      })),
    );
  }
  return resolved;
}

function idempotencyKeyOf(input: OperationInput): string | null {
  const key = input.idempotencyKey?.trim();
  if (key === undefined || key === '') return null;
  if (key.length > MAX_IDEMPOTENCY_KEY) {
    throw new RequestValidationError(`the Idempotency-Key header is longer than ${MAX_IDEMPOTENCY_KEY} characters`, [
      { path: 'header:Idempotency-Key', message: `at most ${MAX_IDEMPOTENCY_KEY} characters` },
    ]);
  }
  return key;
}

/**
 * Failed: the seller certainly did not place the order (it refused it with a 4xx, could not be
 * connected to, or the gateway did not call it: breaker open, member busy, address refused), so its number may
 * be sent again. Unknown: it may have (deadline passed, 5xx, connection lost once the request
 * was out, a reply we cannot trust), so it must never be sent again.
 */
function statusAfter(error: GatewayError): Extract<OrderStatus, 'failed' | 'unknown'> {
  const notPlaced =
    error instanceof SellerRefusedError ||
    error instanceof SellerNotReachedError ||
    error instanceof SellerAddressRefusedError ||
    error instanceof SellerDeclinedError ||
    error instanceof SellerCircuitOpenError ||
    error instanceof SellerBusyError;
  return notPlaced ? 'failed' : 'unknown';
}

/** The buyer's answer for a fault, saying whether the purchase order number may be sent again. */
function restatedFor(
  error: GatewayError,
  status: Extract<OrderStatus, 'failed' | 'unknown'>,
  purchaseOrderNumber: string,
): GatewayError {
  if (status === 'unknown') {
    return error.restated(
      `${error.message}; the seller may have placed the order, so purchase order '${purchaseOrderNumber}' will not be sent again: check with the seller`,
    );
  }
  const again = error instanceof SellerRefusedError ? 'may be sent again, corrected' : 'may be sent again';
  return error.restated(
    `${error.message}; the order was not placed, so purchase order '${purchaseOrderNumber}' ${again}`,
  );
}

/** What this request would send, should it place the order itself, and what it is compared by. */
interface Attempt {
  input: OperationInput;
  /** The buyer's order as parsed: a repeat must be this same order to get the first one's answer. */
  request: PlaceOrderBuyerRequest;
  forwarded: PlaceOrderSellerRequest;
  key: string | null;
  member: Member;
}

const takeoverBy = (attempt: Attempt, at: Date) => ({
  requestId: attempt.input.requestId,
  buyerRequest: attempt.request,
  forwardedRequest: attempt.forwarded,
  idempotencyKey: attempt.key,
  at,
});

/**
 * Where this request differs from the order recorded under its number; undefined
 * when it is the same order (or one recorded before bodies were kept).
 */
const differenceFrom = (record: OrderRecord, attempt: Attempt): string | undefined =>
  record.buyerRequest === null ? undefined : firstDifference(record.buyerRequest, attempt.request);

const STANDING: Partial<Record<OrderStatus, string>> = { confirmed: 'was placed', unknown: 'may have been placed' };

function conflictWith(first: OrderRecord, path: string): OrderConflictError {
  const number = first.purchaseOrderNumber;
  return new OrderConflictError(
    `purchase order '${number}' names another order, which ${STANDING[first.status] ?? 'is being placed'}; this one differs from it at ${path}: ` +
      'send a different order under a new purchase order number, or repeat the first exactly to receive its answer',
    [{ path, message: `differs from the order first sent as purchase order '${number}'` }],
  );
}

const replay = (answer: StoredAnswer): OperationResult => ({
  httpStatus: answer.http_status,
  reply: answer.body,
  warnings: [],
  replayed: true,
});

/** What every step of placing an order works with: the operation's deps, the order records, the time. */
interface OrderDesk {
  deps: OperationDeps;
  records: OrderRecords;
  now: () => Date;
}

export function createPlaceOrder(deps: OperationDeps) {
  const desk: OrderDesk = { deps, records: orderRecords(deps.store), now: () => new Date(deps.clock()) };
  // Before the forward, losing the store means the order was certainly not placed.
  return async function placeOrder(input: OperationInput): Promise<OperationResult> {
    return placeOrderOnce(desk, input).catch((error: unknown) => {
      throw isStoreUnreachable(error)
        ? orderNotPlaced((input.body as { purchase_order_number?: unknown } | null)?.purchase_order_number)
        : error;
    });
  };
}

/** The request checked and resolved into the attempt: the order as the seller will receive it, and its member. */
async function attemptOf(deps: OperationDeps, input: OperationInput): Promise<Attempt> {
  const request = validBuyerRequest<PlaceOrderBuyerRequest>('place-order', input.body, placeOrderRequestRules);
  const key = idempotencyKeyOf(input);
  const locations = await resolveItems(deps, input, request);
  const member = await memberOf(deps, locations[0].memberId);
  // Before the order is claimed: a refused order leaves nothing recorded and its number free.
  if (member.status !== 'live')
    throw notServing(
      member,
      request.items.map((item, i) =>
        notServingDetail(member, `/items/${i}/location_id`, `location '${item.location_id}'`),
      ),
    );
  const { items, ...order } = request;
  const forwarded: PlaceOrderSellerRequest = {
    service: 'place_order',
    ...forwardedCommon(member, input.buyer.user.terminalPin),
    ...order,
    items: items.map((item, i) => ({ ...item, account_id: locations[i].accountId, member_id: locations[i].memberId })),
  };
  return { input, request, forwarded, key, member };
}

/** An Idempotency-Key names one purchase order: reusing it for another is a 4422 on the header. */
function refuseKeyReuse(existing: OrderRecord, attempt: Attempt): void {
  const { key, request } = attempt;
  if (
    key !== null &&
    existing.idempotencyKey === key &&
    existing.purchaseOrderNumber !== request.purchase_order_number
  ) {
    throw new RequestValidationError(
      `Idempotency-Key '${key}' was already used for purchase order '${existing.purchaseOrderNumber}'`,
      [
        {
          path: 'header:Idempotency-Key',
          message: `already used for purchase order '${existing.purchaseOrderNumber}'`,
        },
      ],
    );
  }
}

/** Claims the number and places the order; a number already claimed answers as that order does. */
async function placeOrderOnce(desk: OrderDesk, input: OperationInput): Promise<OperationResult> {
  const attempt = await attemptOf(desk.deps, input);
  const { request, forwarded, key, member } = attempt;
  const user = input.buyer.user;
  const claimed = await desk.records.claim({
    userId: user.id,
    username: user.username,
    purchaseOrderNumber: request.purchase_order_number,
    idempotencyKey: key,
    memberId: member.id,
    requestId: input.requestId,
    buyerRequest: request,
    forwardedRequest: forwarded,
    at: desk.now(),
  });
  if (claimed !== undefined) return forward(desk, claimed, attempt);

  const existing = await desk.records.findExisting(user.id, request.purchase_order_number, key);
  if (existing === undefined)
    throw new InternalError('the order collided with an earlier one that could not be read back');
  refuseKeyReuse(existing, attempt);
  // Certainly not placed the first time (whatever its body was): this attempt may place it.
  if (existing.status === 'failed') return retake(desk, existing, attempt);
  return answerOf(desk, existing, attempt);
}

/** The instant before which an order of this member, still in flight, was left by an attempt that stopped. */
async function staleBefore(desk: OrderDesk, record: OrderRecord): Promise<Date> {
  const owner = await memberOf(desk.deps, record.memberId);
  return new Date(desk.deps.clock() - owner.timeoutMs - desk.deps.config.orderStaleMarginMs);
}

/**
 * An order whose attempt stopped (a crashed instance) is no longer in flight. Received: it
 * was never sent, so this request takes it over and places it (if no other retry got there
 * first). Forwarded: it may have reached the seller, so it becomes unknown and is answered
 * as every unknown order is, never sent again. Undefined when the order was not stale after all.
 */
async function settleStale(
  desk: OrderDesk,
  record: OrderRecord,
  attempt: Attempt,
): Promise<OperationResult | undefined> {
  const { records, now } = desk;
  const before = await staleBefore(desk, record);
  if (record.updatedAt >= before) return undefined;
  if (record.status === 'received') {
    const taken = await records.takeOverStaleReceived(record.id, {
      ...takeoverBy(attempt, now()),
      memberId: attempt.member.id,
      staleBefore: before,
    });
    return taken === undefined ? undefined : forward(desk, taken, attempt);
  }
  if (record.status === 'forwarded') {
    const lost = new SellerTimeoutError(
      `the gateway instance that forwarded purchase order '${record.purchaseOrderNumber}' stopped before the seller's ` +
        `answer was recorded; the seller may have placed the order, so it will not be sent again: check with the seller`,
    );
    const answer = { http_status: lost.httpStatus, body: errorReply(lost) };
    const marked = await records.markStaleForwardedUnknown(record.id, {
      answer,
      error: lost.message,
      staleBefore: before,
      at: now(),
    });
    return marked?.answer == null ? undefined : replay(marked.answer);
  }
  return undefined;
}

/**
 * A repeat of an order still in flight waits for its answer, up to a limit; one whose
 * attempt went stale is settled instead (settleStale). Every look at the record compares
 * bodies first: a takeover may have put another order under the number meanwhile.
 */
async function answerOf(desk: OrderDesk, first: OrderRecord, attempt: Attempt): Promise<OperationResult> {
  // By the injected clock, like staleness: a test moves it rather than waiting the limit out.
  const { clock } = desk.deps;
  const giveUpAt = clock() + desk.deps.config.orderWaitMs;
  let current: OrderRecord | undefined = first;
  while (current !== undefined) {
    const difference = differenceFrom(current, attempt);
    if (difference !== undefined) return anotherOrder(desk, current, difference, attempt);
    if (current.answer !== null) return replay(current.answer);
    const settled = await settleStale(desk, current, attempt);
    if (settled !== undefined) return settled;
    if (clock() >= giveUpAt) break;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    current = await desk.records.find(first.id);
  }
  throw new OrderInFlightError(
    `purchase order '${first.purchaseOrderNumber}' is already being placed by an earlier request; retry later to receive its result`,
  );
}

/**
 * A different order under the number: refused while the first stands. One certainly not
 * placed (failed) is no longer standing, and one claimed but left stale by a stopped
 * instance was never sent: this request may take either over and place its own order.
 */
async function anotherOrder(
  desk: OrderDesk,
  first: OrderRecord,
  difference: string,
  attempt: Attempt,
): Promise<OperationResult> {
  if (first.status === 'failed') return retake(desk, first, attempt);
  if (first.status === 'received') {
    const settled = await settleStale(desk, first, attempt);
    if (settled !== undefined) return settled;
  }
  throw conflictWith(first, difference);
}

/** An order certainly not placed: this attempt places its own, unless another retry got there first. */
async function retake(desk: OrderDesk, failed: OrderRecord, attempt: Attempt): Promise<OperationResult> {
  const retaken = await desk.records.retakeFailed(failed.id, takeoverBy(attempt, desk.now()));
  if (retaken !== undefined) return forward(desk, retaken, attempt);
  // Another retry took it over: wait for that attempt (or refuse, if it sent another order), not the old failure.
  return answerOf(desk, (await desk.records.find(failed.id)) ?? failed, attempt);
}

async function forward(desk: OrderDesk, record: OrderRecord, attempt: Attempt): Promise<OperationResult> {
  const { forwarded } = attempt;
  // Only the attempt still holding the claim sends: if this one was so slow that a retry
  // took the order over as stale, it answers with that retry's result instead.
  if (!(await desk.records.markForwarded(record.id, record.attempts, desk.now())))
    return answerOf(desk, record, attempt);
  // From here on the order may be at the seller: losing the store leaves its state unknown.
  return sendForwarded(desk, record, attempt).catch((error: unknown) => {
    throw isStoreUnreachable(error) ? orderStateUnknown(forwarded.purchase_order_number) : error;
  });
}

async function sendForwarded(desk: OrderDesk, record: OrderRecord, attempt: Attempt): Promise<OperationResult> {
  const { member, forwarded, input } = attempt;
  const { records, now } = desk;
  try {
    const checked = await forwardToSeller<PlaceOrderSellerReply>(desk.deps, 'place-order', member, forwarded, input);
    const confirmed = checked.reply.status_code === OverallStatus.Success;
    await records.finish(
      record.id,
      {
        status: confirmed ? 'confirmed' : 'failed',
        sellerReply: checked.reply,
        answer: { http_status: 200, body: checked.reply },
      },
      now(),
    );
    return {
      httpStatus: 200,
      reply: checked.reply,
      warnings: warningLines(member, checked.warnings),
      log: { order_id: record.id, order_status: confirmed ? 'confirmed' : 'failed' },
    };
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error;
    const status = statusAfter(error);
    const recorded = restatedFor(error, status, forwarded.purchase_order_number);
    await records.finish(
      record.id,
      { status, answer: { http_status: recorded.httpStatus, body: errorReply(recorded) }, error: recorded.message },
      now(),
    );
    throw recorded;
  }
}
