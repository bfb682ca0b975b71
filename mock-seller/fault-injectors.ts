import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import { documentStatusOf, OVERALL_STATUS_MEANING, OverallStatus, type Service } from '../contracts/index';
import { latencyMs } from './fault-schedule';
import type { Fault, FaultKind, FaultOf } from './faults';
import type { RequestContext } from './mock-seller-env';
import type { SellerLiveState } from './seller-live-state';
import { applyViolation, type ViolationFault } from './violations';

// What each kind of fault does: one injector a kind, as WireMock keeps a Fault apart from its
// injector. An injector acts at one stage of the answer, in this order:
//   delay   waits first (the delays of several latencies add up);
//   answer  answers instead of the seller, nothing done (the first such fault wins);
//   spoil   breaks the honest reply in place (each in turn);
//   send    sends the reply its own way.

export const MALFORMED_BODY = '{"status_code": 2000, "items": [{"id": "';
const JSON_TYPE = { 'content-type': 'application/json' };

/** One request meeting faults, as its injectors see it. */
export interface FaultedRequest {
  c: RequestContext;
  state: SellerLiveState;
  service: Service;
  /** Journals the outcome: the HTTP status (null when none was sent) and the reply as sent. */
  log(httpStatus: number | null, reply: unknown): void;
}

export type Injector<F extends Fault> =
  | { stage: 'delay'; delayMs(fault: F): number }
  | { stage: 'answer'; answer(fault: F, on: FaultedRequest): Response | Promise<Response> }
  | { stage: 'spoil'; spoil(fault: F, service: Service, request: unknown, reply: unknown): string | undefined }
  | { stage: 'send'; send(fault: F, on: FaultedRequest, reply: object): Response };

const socketOf = (c: RequestContext) => c.env?.incoming?.socket;

/** A body that fails while being read: what a client sees of a reset connection in-process. */
const brokenBody = (why: string) =>
  new Response(new ReadableStream({ start: (controller) => controller.error(new Error(why)) }), { headers: JSON_TYPE });

function resetConnection(_fault: FaultOf<'reset'>, { c, log }: FaultedRequest): Response {
  log(null, null);
  const socket = socketOf(c);
  if (socket === undefined) return brokenBody('connection reset by the mock seller');
  socket.resetAndDestroy();
  return RESPONSE_ALREADY_SENT;
}

/**
 * Holds the request until the client goes away or the mock lets
 * it go (releaseHanging, close), then drops the connection.
 */
async function hang(_fault: FaultOf<'hang'>, { c, state, log }: FaultedRequest): Promise<Response> {
  const socket = socketOf(c);
  await new Promise<void>((resolve) => {
    const release = () => {
      state.hanging.delete(release);
      resolve();
    };
    state.hanging.add(release);
    socket?.once('close', release);
  });
  log(null, null);
  if (socket === undefined) return brokenBody('the mock seller never answered');
  socket.destroy();
  return RESPONSE_ALREADY_SENT;
}

function httpStatus(fault: FaultOf<'http-status'>, { c, log }: FaultedRequest): Response {
  const status = fault.status ?? 503;
  const body = `mock seller fault: HTTP ${status}`;
  log(status, body);
  return c.text(body, status as 503);
}

/** The seller-level error a `status-code` fault answers with, in each service's envelope. */
function sellerErrorReply(service: Service, code: number): object {
  const meaning = OVERALL_STATUS_MEANING[code as OverallStatus] ?? 'Error';
  switch (service) {
    case 'item_inquiry':
      return { status_code: code, items: [] };
    case 'place_order':
      return { order_number: '', status_code: code, comment: meaning, items: [] };
    case 'invoice':
      return { status: documentStatusOf(code), error_description: `${code} ${meaning}`, invoices: [] };
    case 'statement':
      return { status: documentStatusOf(code), error_description: `${code} ${meaning}`, statements: [] };
  }
}

function statusCode(fault: FaultOf<'status-code'>, { c, service, log }: FaultedRequest): Response {
  const reply = sellerErrorReply(service, fault.code ?? OverallStatus.ServiceOffline);
  log(200, reply);
  return c.json(reply);
}

function malformedJson(_fault: FaultOf<'malformed-json'>, { c, log }: FaultedRequest): Response {
  log(200, MALFORMED_BODY);
  return c.body(MALFORMED_BODY, 200, JSON_TYPE);
}

/** Promises the whole body, sends half, then drops the connection (in-process: the first half). */
function truncated(_fault: FaultOf<'truncated'>, { c, log }: FaultedRequest, reply: object): Response {
  const full = Buffer.from(JSON.stringify(reply));
  const half = full.subarray(0, Math.floor(full.length / 2));
  log(200, half.toString());
  const socket = socketOf(c);
  if (socket === undefined) return c.body(half.toString(), 200, JSON_TYPE);
  const outgoing = c.env!.outgoing!;
  outgoing.writeHead(200, { ...JSON_TYPE, 'content-length': String(full.length) });
  outgoing.write(half, () => socket.destroy());
  return RESPONSE_ALREADY_SENT;
}

const violation: Injector<ViolationFault> = {
  stage: 'spoil',
  spoil: (fault, service, request, reply) => applyViolation(service, fault, request, reply),
};

/** Every kind's injector: a kind without one does not compile. */
const INJECTORS: { [K in FaultKind]: Injector<FaultOf<K>> } = {
  latency: { stage: 'delay', delayMs: (fault) => latencyMs(fault) },
  'http-status': { stage: 'answer', answer: httpStatus },
  'status-code': { stage: 'answer', answer: statusCode },
  'malformed-json': { stage: 'answer', answer: malformedJson },
  truncated: { stage: 'send', send: truncated },
  reset: { stage: 'answer', answer: resetConnection },
  hang: { stage: 'answer', answer: hang },
  'drop-id': violation,
  'change-id': violation,
  'add-unknown-id': violation,
  'wrong-original-part': violation,
  'wrong-original-mfr': violation,
  'extra-location': violation,
  'missing-field': violation,
};

/** A fault beside its kind's injector. */
export interface Staged<F extends Fault = Fault> {
  fault: F;
  injector: Injector<F>;
}

export const staged = <K extends FaultKind>(fault: FaultOf<K>): Staged<FaultOf<K>> => ({
  fault,
  injector: INJECTORS[fault.kind as K],
});
