import { setTimeout as sleep } from 'node:timers/promises';
import {
  OPERATION_OF_SERVICE,
  operationOfService,
  OverallStatus,
  invoiceRequestRules,
  itemInquiryRequestRules,
  placeOrderRequestRules,
  statementRequestRules,
  validators,
  type InvoiceSellerRequest,
  type ItemInquirySellerRequest,
  type PlaceOrderSellerRequest,
  type Service,
  type StatementSellerRequest,
  type ValidationIssue,
} from '../contracts/index';
import { answerInvoice, answerStatement } from './documents';
import { BadRequestError } from './errors';
import { staged, type FaultedRequest, type Staged } from './fault-injectors';
import { describeFault, inapplicable, parseFaultHeader, type Fault } from './faults';
import { scheduledFaults } from './fault-schedule';
import { answerItemInquiry, itemInquiryBody } from './item-inquiry';
import type { JournalRecord } from './journal';
import type { RequestContext } from './mock-seller-env';
import { answerPlaceOrder } from './place-order';
import type { SellerLiveState } from './seller-live-state';
import type { Admitted } from './load-model';
import { requestCutOff } from '../shared/http/request-cut-off';

// POST /seller: one endpoint for every forwarded operation, dispatching on `service`.

export const FAULT_HEADER = 'x-mock-fault';
/** What a malformed-json fault sends (its injector's; named here too for the endpoint's users). */
export { MALFORMED_BODY } from './fault-injectors';
const JSON_TYPE = { 'content-type': 'application/json' };

const REQUEST_RULES: Record<Service, (request: never) => ValidationIssue[]> = {
  item_inquiry: itemInquiryRequestRules,
  place_order: placeOrderRequestRules,
  invoice: invoiceRequestRules,
  statement: statementRequestRules,
};

/** The x-mock-fault header. Served, from Node's raw header list: cheaper than materialising Headers. */
function faultHeaderOf(c: RequestContext): string | undefined {
  const raw = c.env?.incoming?.rawHeaders;
  if (raw === undefined) return c.req.header(FAULT_HEADER);
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i].length === FAULT_HEADER.length && raw[i].toLowerCase() === FAULT_HEADER) return raw[i + 1];
  }
  return undefined;
}

function honestReply(state: SellerLiveState, c: RequestContext, service: Service, request: unknown): object {
  switch (service) {
    case 'item_inquiry':
      return answerItemInquiry(state.data, request as ItemInquirySellerRequest);
    case 'place_order': {
      const order = request as PlaceOrderSellerRequest;
      const reply = answerPlaceOrder(state.data, order, state.nextOrderNumber());
      state.replies.clear(); // stock may have changed
      state.orders.push({
        order_number: reply.order_number,
        placed_at: new Date().toISOString(),
        request: order,
        reply,
      });
      return reply;
    }
    case 'invoice':
      return answerInvoice(state.data, request as InvoiceSellerRequest, state.publicUrl ?? new URL(c.req.url).origin);
    case 'statement':
      return answerStatement(
        state.data,
        request as StatementSellerRequest,
        state.publicUrl ?? new URL(c.req.url).origin,
      );
  }
}

const partNumbersOf = (request: { items?: { part_number: string }[]; part_number?: string }) => () =>
  request.items !== undefined
    ? request.items.map((i) => i.part_number)
    : request.part_number !== undefined
      ? [request.part_number]
      : [];

/** One request as received: what every journal entry of it repeats. */
interface Received {
  startedAt: number;
  t0: number;
  service: Service | null;
  text: string;
  /** Header faults ignored because they do not apply to the service, in header syntax. */
  notApplied: string[] | undefined;
}

type Outcome = Omit<JournalRecord, 'startedAt' | 'elapsed_ms' | 'service' | 'requestText' | 'faults_not_applied'>;

// Module-level rather than per-request closures: the honest path allocates little.
function record(state: SellerLiveState, rx: Received, outcome: Outcome): void {
  state.journal.record({
    startedAt: rx.startedAt,
    elapsed_ms: performance.now() - rx.t0,
    service: rx.service,
    requestText: rx.text,
    faults_not_applied: rx.notApplied,
    ...outcome,
  });
}

/** A request refused: 400 with the issues, journaled. */
class Refusal {
  constructor(
    readonly message: string,
    readonly errors: ValidationIssue[],
  ) {}
}

function reject(state: SellerLiveState, c: RequestContext, rx: Received, { message, errors }: Refusal): Response {
  const reply = { status_code: OverallStatus.ValidationError, message, errors };
  record(state, rx, { http_status: 400, reply, notes: errors });
  return c.json(reply, 400);
}

const SERVICE_LIST = Object.keys(OPERATION_OF_SERVICE).join(', ');

export function sellerEndpoint(state: SellerLiveState) {
  return async (c: RequestContext): Promise<Response> => {
    const startedAt = Date.now();
    const t0 = performance.now();
    // A body the client stopped sending is a 408 of theirs (request-cut-off.ts), not an error of the mock's.
    const text = await c.req.text().catch((error: unknown) => Promise.reject(requestCutOff(c, error) as Error));
    const rx: Received = { startedAt, t0, service: null, text, notApplied: undefined };
    const model = state.load;
    if (model === undefined) return answer(state, c, rx, undefined);
    // The capacity model: a worker and its service time first, as a real seller's queue.
    const admitted = await model.admit(text, state.closing);
    try {
      return await answer(state, c, rx, model.config.cross_talk === undefined ? undefined : admitted);
    } finally {
      admitted.release();
    }
  };
}

/**
 * The body as a request of a known service (named on `rx` once known)
 * that keeps the contract's shape and request rules, or why not.
 */
function acceptedRequest(text: string, rx: Received): { service: Service; request: unknown } | Refusal {
  let request: unknown;
  try {
    request = JSON.parse(text);
  } catch (error) {
    return new Refusal('the body is not JSON', [{ keyword: 'json', path: '', message: (error as Error).message }]);
  }
  const named = (request as { service?: unknown } | null)?.service;
  const operation = typeof named === 'string' ? operationOfService(named) : undefined;
  if (operation === undefined) {
    return new Refusal(`service must be one of ${SERVICE_LIST}`, [
      { keyword: 'service', path: '/service', message: `must be one of ${SERVICE_LIST}` },
    ]);
  }
  const service = (rx.service = named as Service);
  const shape = validators[operation]['seller-request'](request);
  if (!shape.valid) return new Refusal(`invalid ${service} request`, shape.errors);
  const ruleIssues = REQUEST_RULES[service](request as never);
  if (ruleIssues.length > 0) return new Refusal(`invalid ${service} request`, ruleIssues);
  return { service, request };
}

/**
 * The faults of the `x-mock-fault` header this service can honour. One header may target
 * several operations (a vendor-kit run, a gateway fan-out): a fault this service cannot
 * honour is skipped here, and journaled as not applied.
 */
function headerFaultsOf(header: string | undefined, service: Service, rx: Received): Fault[] | Refusal {
  if (header === undefined) return NO_FAULTS;
  let faults: Fault[];
  try {
    faults = parseFaultHeader(header);
  } catch (error) {
    if (error instanceof BadRequestError) return new Refusal(error.message, error.issues);
    throw error;
  }
  const misplaced = inapplicable(service, faults);
  if (misplaced.length === 0) return faults;
  rx.notApplied = misplaced.map(describeFault);
  return faults.filter((f) => !misplaced.includes(f));
}

/** The reply to one request; `talk` is set when the cross-talk fault may spoil it. */
async function answer(
  state: SellerLiveState,
  c: RequestContext,
  rx: Received,
  talk: Admitted | undefined,
): Promise<Response> {
  const text = rx.text;
  const header = faultHeaderOf(c);
  if (header === undefined && state.faults.size === 0 && talk === undefined) {
    // A body answered before, on the same data, with no fault in play: the same bytes again.
    const cached = state.replies.get(state.data, text);
    if (cached !== undefined) {
      rx.service = 'item_inquiry';
      record(state, rx, { http_status: 200, replyBytes: cached });
      return c.body(cached as Uint8Array<ArrayBuffer>, 200, JSON_TYPE);
    }
  }
  const accepted = acceptedRequest(text, rx);
  if (accepted instanceof Refusal) return reject(state, c, rx, accepted);
  const { service, request } = accepted;
  const headerFaults = headerFaultsOf(header, service, rx);
  if (headerFaults instanceof Refusal) return reject(state, c, rx, headerFaults);
  const ruleFaults =
    state.faults.size === 0
      ? NO_FAULTS
      : state.faults.take(service, partNumbersOf(request as never), (rule) =>
          scheduledFaults(rule, service, request, text, state.data),
        );

  if (headerFaults.length === 0 && ruleFaults.length === 0 && talk === undefined) {
    // The honest path, kept short: the benchmark measures it.
    if (service === 'item_inquiry') {
      const bytes = itemInquiryBody(state.data, request as ItemInquirySellerRequest);
      state.replies.set(state.data, text, bytes);
      record(state, rx, { http_status: 200, replyBytes: bytes });
      // Buffer.concat never hands out a SharedArrayBuffer; the cast only narrows the type.
      return c.body(bytes as Uint8Array<ArrayBuffer>, 200, JSON_TYPE);
    }
    const reply = honestReply(state, c, service, request);
    record(state, rx, { http_status: 200, reply });
    return c.json(reply);
  }
  return faulty({ state, c, rx, service, request, headerFaults, ruleFaults, talk });
}

const NO_FAULTS: Fault[] = [];

/** A request the endpoint accepted and faults spoil. */
interface FaultyRequest {
  state: SellerLiveState;
  c: RequestContext;
  rx: Received;
  service: Service;
  request: unknown;
  headerFaults: Fault[];
  ruleFaults: Fault[];
  /** Set when the load model's cross-talk fault may spoil the reply. */
  talk: Admitted | undefined;
}

/** Journals the request once, with every fault applied (`applied` and `notes` may grow until then). */
function journalOf(
  { state, rx, headerFaults, ruleFaults }: FaultyRequest,
  applied: string[],
  notes: string[],
): FaultedRequest['log'] {
  const source =
    headerFaults.length > 0 && ruleFaults.length > 0
      ? 'header+rule'
      : headerFaults.length > 0
        ? 'header'
        : ruleFaults.length > 0
          ? 'rule'
          : 'load';
  return (http_status, reply) =>
    record(state, rx, {
      http_status,
      reply,
      faults: applied,
      fault_source: applied.length === 0 ? null : source,
      notes,
    });
}

/** Waits out the latencies' delays, together; closing cuts the wait short. */
async function delayed(faults: readonly Staged[], closing: AbortSignal): Promise<void> {
  let delay = 0;
  for (const { fault, injector } of faults) if (injector.stage === 'delay') delay += injector.delayMs(fault);
  if (delay === 0) return;
  try {
    await sleep(delay, undefined, { signal: closing });
  } catch {
    /* closing: fall through, the connection is going away */
  }
}

/**
 * The honest reply with every spoiling fault and the load's cross-talk applied; notes say what found nothing to act on.
 */
function spoiled(x: FaultyRequest, faults: readonly Staged[], applied: string[], notes: string[]): object {
  const reply = honestReply(x.state, x.c, x.service, x.request);
  for (const { fault, injector } of faults) {
    if (injector.stage !== 'spoil') continue;
    const note = injector.spoil(fault, x.service, x.request, reply);
    if (note !== undefined) notes.push(`${fault.kind}: ${note}`);
  }
  const crossTalk = x.talk?.crossTalk(reply);
  if (crossTalk !== undefined) {
    applied.push('cross-talk');
    notes.push(crossTalk.note);
  }
  return reply;
}

/**
 * A request's faults in their stages: delay, then an answer
 * instead of the seller's, or the seller's reply spoiled and sent.
 */
async function faulty(x: FaultyRequest): Promise<Response> {
  const faults = [...x.headerFaults, ...x.ruleFaults].map(staged);
  const applied = faults.map(({ fault }) => describeFault(fault));
  const notes: string[] = [];
  const on: FaultedRequest = { c: x.c, state: x.state, service: x.service, log: journalOf(x, applied, notes) };
  await delayed(faults, x.state.closing);
  for (const { fault, injector } of faults) if (injector.stage === 'answer') return injector.answer(fault, on);
  const reply = spoiled(x, faults, applied, notes);
  for (const { fault, injector } of faults) if (injector.stage === 'send') return injector.send(fault, on, reply);
  on.log(200, reply);
  return x.c.json(reply);
}
