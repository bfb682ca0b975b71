import type { Context } from 'hono';
import type { HttpBindings } from '@hono/node-server';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  documentStatusOf,
  OPERATION_OF_SERVICE,
  operationOfService,
  OVERALL_STATUS_MEANING,
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
import { describeFault, inapplicable, parseFaultHeader, type Fault } from './faults';
import { latencyMs, scheduledFaults } from './fault-schedule';
import { answerItemInquiry, itemInquiryBody } from './item-inquiry';
import type { JournalRecord } from './journal';
import { answerPlaceOrder } from './place-order';
import type { SellerContext } from './seller-live-state';
import { applyViolation } from './violations';
import type { Admitted } from './load-model';
import { requestCutOff } from '../shared/http/request-cut-off';

// POST /seller: one endpoint for every forwarded operation, dispatching on `service`.

export const FAULT_HEADER = 'x-mock-fault';
const JSON_TYPE = { 'content-type': 'application/json' };

const REQUEST_RULES: Record<Service, (request: never) => ValidationIssue[]> = {
  item_inquiry: itemInquiryRequestRules,
  place_order: placeOrderRequestRules,
  invoice: invoiceRequestRules,
  statement: statementRequestRules,
};

type Ctx = Context<{ Bindings: Partial<HttpBindings> | undefined }>;

const socketOf = (c: Ctx) => c.env?.incoming?.socket;

/** The x-mock-fault header. Served, from Node's raw header list: cheaper than materialising Headers. */
function faultHeaderOf(c: Ctx): string | undefined {
  const raw = c.env?.incoming?.rawHeaders;
  if (raw === undefined) return c.req.header(FAULT_HEADER);
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i].length === FAULT_HEADER.length && raw[i].toLowerCase() === FAULT_HEADER) return raw[i + 1];
  }
  return undefined;
}

function honestReply(ctx: SellerContext, c: Ctx, service: Service, request: unknown): object {
  switch (service) {
    case 'item_inquiry':
      return answerItemInquiry(ctx.data, request as ItemInquirySellerRequest);
    case 'place_order': {
      const order = request as PlaceOrderSellerRequest;
      const reply = answerPlaceOrder(ctx.data, order, ctx.nextOrderNumber());
      ctx.replies.clear(); // stock may have changed
      ctx.orders.push({ order_number: reply.order_number, placed_at: new Date().toISOString(), request: order, reply });
      return reply;
    }
    case 'invoice':
      return answerInvoice(ctx.data, request as InvoiceSellerRequest, ctx.publicUrl ?? new URL(c.req.url).origin);
    case 'statement':
      return answerStatement(ctx.data, request as StatementSellerRequest, ctx.publicUrl ?? new URL(c.req.url).origin);
  }
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

const partNumbersOf = (request: { items?: { part_number: string }[]; part_number?: string }) => () =>
  request.items !== undefined ? request.items.map((i) => i.part_number) : request.part_number !== undefined ? [request.part_number] : [];

/** A body that fails while being read: what a client sees of a reset connection in-process. */
const brokenBody = (why: string) =>
  new Response(new ReadableStream({ start: (controller) => controller.error(new Error(why)) }), { headers: { 'content-type': 'application/json' } });

const TERMINAL = new Set<Fault['kind']>(['reset', 'hang', 'http-status', 'status-code', 'malformed-json']);
const VIOLATIONS = new Set<Fault['kind']>([
  'drop-id',
  'change-id',
  'add-unknown-id',
  'wrong-original-part',
  'wrong-original-mfr',
  'extra-location',
  'missing-field',
]);
export const MALFORMED_BODY = '{"status_code": 2000, "items": [{"id": "';

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
function record(ctx: SellerContext, rx: Received, outcome: Outcome): void {
  ctx.journal.record({
    startedAt: rx.startedAt,
    elapsed_ms: performance.now() - rx.t0,
    service: rx.service,
    requestText: rx.text,
    faults_not_applied: rx.notApplied,
    ...outcome,
  });
}

function reject(ctx: SellerContext, c: Ctx, rx: Received, message: string, errors: ValidationIssue[]): Response {
  const reply = { status_code: OverallStatus.ValidationError, message, errors };
  record(ctx, rx, { http_status: 400, reply, notes: errors });
  return c.json(reply, 400);
}

const SERVICE_LIST = Object.keys(OPERATION_OF_SERVICE).join(', ');

export function sellerEndpoint(ctx: SellerContext) {
  return async (c: Ctx): Promise<Response> => {
    const startedAt = Date.now();
    const t0 = performance.now();
    // A body the client stopped sending is a 408 of theirs (request-cut-off.ts), not an error of the mock's.
    const text = await c.req.text().catch((error: unknown) => Promise.reject(requestCutOff(c, error) as Error));
    const rx: Received = { startedAt, t0, service: null, text, notApplied: undefined };
    const model = ctx.load;
    if (model === undefined) return answer(ctx, c, rx, undefined);
    // The capacity model: a worker and its service time first, as a real seller's queue.
    const admitted = await model.admit(text, ctx.closing);
    try {
      return await answer(ctx, c, rx, model.config.cross_talk === undefined ? undefined : admitted);
    } finally {
      admitted.release();
    }
  };
}

/** The reply to one request; `talk` is set when the cross-talk fault may spoil it. */
async function answer(ctx: SellerContext, c: Ctx, rx: Received, talk: Admitted | undefined): Promise<Response> {
  const text = rx.text;
  const header = faultHeaderOf(c);
  if (header === undefined && ctx.faults.size === 0 && talk === undefined) {
    // A body answered before, on the same data, with no fault in play: the same bytes again.
    const cached = ctx.replies.get(ctx.data, text);
    if (cached !== undefined) {
      rx.service = 'item_inquiry';
      record(ctx, rx, { http_status: 200, replyBytes: cached });
      return c.body(cached as Uint8Array<ArrayBuffer>, 200, JSON_TYPE);
    }
  }
  let request: unknown;
  try {
    request = JSON.parse(text);
  } catch (error) {
    return reject(ctx, c, rx, 'the body is not JSON', [{ keyword: 'json', path: '', message: (error as Error).message }]);
  }
  const named = (request as { service?: unknown } | null)?.service;
  const operation = typeof named === 'string' ? operationOfService(named) : undefined;
  if (operation === undefined) {
    return reject(ctx, c, rx, `service must be one of ${SERVICE_LIST}`, [{ keyword: 'service', path: '/service', message: `must be one of ${SERVICE_LIST}` }]);
  }
  const service = (rx.service = named as Service);
  const shape = validators[operation]['seller-request'](request);
  if (!shape.valid) return reject(ctx, c, rx, `invalid ${service} request`, shape.errors);
  const ruleIssues = REQUEST_RULES[service](request as never);
  if (ruleIssues.length > 0) return reject(ctx, c, rx, `invalid ${service} request`, ruleIssues);

  let headerFaults: Fault[] = NO_FAULTS;
  if (header !== undefined) {
    try {
      headerFaults = parseFaultHeader(header);
    } catch (error) {
      if (error instanceof BadRequestError) return reject(ctx, c, rx, error.message, error.issues);
      throw error;
    }
    // One header may target several operations (a vendor-kit run, a gateway fan-out): a
    // fault this service cannot honour is skipped here, and journaled as not applied.
    const misplaced = inapplicable(service, headerFaults);
    if (misplaced.length > 0) {
      headerFaults = headerFaults.filter((f) => !misplaced.includes(f));
      rx.notApplied = misplaced.map(describeFault);
    }
  }
  const ruleFaults =
    ctx.faults.size === 0
      ? NO_FAULTS
      : ctx.faults.take(service, partNumbersOf(request as never), (rule) => scheduledFaults(rule, service, request, text, ctx.data));

  if (headerFaults.length === 0 && ruleFaults.length === 0 && talk === undefined) {
    // The honest path, kept short: the benchmark measures it.
    if (service === 'item_inquiry') {
      const bytes = itemInquiryBody(ctx.data, request as ItemInquirySellerRequest);
      ctx.replies.set(ctx.data, text, bytes);
      record(ctx, rx, { http_status: 200, replyBytes: bytes });
      // Buffer.concat never hands out a SharedArrayBuffer; the cast only narrows the type.
      return c.body(bytes as Uint8Array<ArrayBuffer>, 200, JSON_TYPE);
    }
    const reply = honestReply(ctx, c, service, request);
    record(ctx, rx, { http_status: 200, reply });
    return c.json(reply);
  }
  return faulty(ctx, c, rx, service, request, headerFaults, ruleFaults, talk);
}

const NO_FAULTS: Fault[] = [];

async function faulty(
  ctx: SellerContext,
  c: Ctx,
  rx: Received,
  service: Service,
  request: unknown,
  headerFaults: Fault[],
  ruleFaults: Fault[],
  talk?: Admitted,
): Promise<Response> {
  const faults = [...headerFaults, ...ruleFaults];
  const applied = faults.map(describeFault);
  const fault_source =
    headerFaults.length > 0 && ruleFaults.length > 0 ? 'header+rule' : headerFaults.length > 0 ? 'header' : ruleFaults.length > 0 ? 'rule' : 'load';
  const notes: string[] = [];
  const log = (http_status: number | null, reply: unknown) =>
    record(ctx, rx, { http_status, reply, faults: applied, fault_source: applied.length === 0 ? null : fault_source, notes });

  let delay = 0;
  for (const f of faults) {
    if (f.kind === 'latency') delay += latencyMs(f);
  }
  if (delay > 0) {
    try {
      await sleep(delay, undefined, { signal: ctx.closing });
    } catch {
      /* closing: fall through, the connection is going away */
    }
  }

  const terminal = faults.find((f) => TERMINAL.has(f.kind));
  const socket = socketOf(c);
  switch (terminal?.kind) {
    case 'reset':
      log(null, null);
      if (socket === undefined) return brokenBody('connection reset by the mock seller');
      socket.resetAndDestroy();
      return RESPONSE_ALREADY_SENT;
    case 'hang': {
      await new Promise<void>((resolve) => {
        const release = () => {
          ctx.hanging.delete(release);
          resolve();
        };
        ctx.hanging.add(release);
        socket?.once('close', release);
      });
      log(null, null);
      if (socket === undefined) return brokenBody('the mock seller never answered');
      socket.destroy();
      return RESPONSE_ALREADY_SENT;
    }
    case 'http-status': {
      const status = terminal.status ?? 503;
      const body = `mock seller fault: HTTP ${status}`;
      log(status, body);
      return c.text(body, status as 503);
    }
    case 'status-code': {
      const reply = sellerErrorReply(service, terminal.code ?? OverallStatus.ServiceOffline);
      log(200, reply);
      return c.json(reply);
    }
    case 'malformed-json':
      log(200, MALFORMED_BODY);
      return c.body(MALFORMED_BODY, 200, { 'content-type': 'application/json' });
  }

  const reply = honestReply(ctx, c, service, request);
  for (const f of faults) {
    if (!VIOLATIONS.has(f.kind)) continue;
    const note = applyViolation(service, f, request, reply);
    if (note !== undefined) notes.push(`${f.kind}: ${note}`);
  }
  const crossTalk = talk?.crossTalk(reply);
  if (crossTalk !== undefined) {
    applied.push('cross-talk');
    notes.push(crossTalk.note);
  }
  if (!faults.some((f) => f.kind === 'truncated')) {
    log(200, reply);
    return c.json(reply);
  }
  const full = Buffer.from(JSON.stringify(reply));
  const half = full.subarray(0, Math.floor(full.length / 2));
  log(200, half.toString());
  if (socket === undefined) return c.body(half.toString(), 200, { 'content-type': 'application/json' });
  // Promise the whole body, send half, then drop the connection.
  const outgoing = c.env!.outgoing!;
  outgoing.writeHead(200, { 'content-type': 'application/json', 'content-length': String(full.length) });
  outgoing.write(half, () => socket.destroy());
  return RESPONSE_ALREADY_SENT;
}
