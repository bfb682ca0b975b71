import { Hono, type Context } from 'hono';
import type { ReplyCheck } from '../../contracts/reply-check';
import { operationOfService } from '../../contracts/operation-of-service';
import { breachesOf, breachLine } from './rules-proxy-report';
import type { Exchange } from './proxied-exchange';
import { listen } from '../../shared/http/listen';
import { refuseCrossSiteAndNonJson } from './json-request-guard';
import { inertReplies } from './proxy-reply-headers';
import type { ReplyFinding } from '../reply-findings';
import { callFailureText, closedText } from '../call-failure';
import { DEFAULT_MAX_REPLY_BYTES } from '../reply-within-limit';
import {
  elapsedSince,
  forwardToSeller,
  judgeReply,
  type Arrival,
  type JudgedReply,
  type SellerAnswer,
} from './rules-proxy-seller';

// The rules-checking proxy: the Pact verifier talks to it as if it were the seller; it
// forwards each request, unchanged, to the seller's real URL, applies the contract core's
// reply rules to the (request, reply) pair, and hands the reply back unchanged. So the id
// echo and original_part/original_mfr rules are checked on the seller's own data, which
// Pact cannot do for injected values.
//
// One clock: the proxy waits `timeoutMs` for the seller and then answers the verifier itself
// (504, named as the proxy's), so it always answers before the verifier's own, longer limit;
// the seller's late reply is still awaited, checked, and reported on the same exchange.
//
// Nothing the seller sends is relayed as active content: a reply that is not JSON, or larger
// than `maxReplyBytes`, is answered with the proxy's own JSON error naming the finding, and
// every reply carries nosniff and a CSP that allows nothing.

/** Hop-by-hop and length headers are the proxy's own business. */
const NOT_FORWARDED = new Set([
  'host',
  'connection',
  'content-length',
  'transfer-encoding',
  'keep-alive',
  'accept-encoding',
]);

export interface RulesProxyOptions {
  /** The seller's full URL; every request is POSTed there whatever path it came on. */
  sellerUrl: string;
  /**
   * Answer a reply that breaks the schema or a rule with 502 and a JSON body naming each
   * breach, so any Pact verifier in front of the proxy fails the interaction visibly. Off in
   * our own kit, which reports Pact's verdict and the rules' verdict side by side.
   */
  rejectBroken?: boolean;
  /** Added to every forwarded request (authorization, test switches). */
  headers?: Record<string, string>;
  /** Called when the proxy answers the verifier. */
  onExchange?: (exchange: Exchange) => void;
  /** Called when a seller's reply arrives after the limit; the exchange is updated in place. */
  onLateReply?: (exchange: Exchange) => void;
  /** How long to wait for the seller before answering 504 (default 30 s). */
  timeoutMs?: number;
  /**
   * The largest reply read from the seller (default 8 MiB); past
   * it the exchange is stopped, a `reply.too-large` finding.
   */
  maxReplyBytes?: number;
  /** Tags each exchange on arrival (e.g. with the interaction under way). */
  tag?: () => string | undefined;
  /** Apps served on the proxy's port under these paths instead of being relayed (e.g. an inspector page). */
  routes?: { path: string; app: Hono }[];
}

/** The proxy's own answer for a reply it does not relay: JSON, naming the finding. */
export function findingBody(finding: ReplyFinding) {
  // The message once (verifiers print the whole body in their diff); the rest as data.
  const { message, ...data } = finding;
  return { rules_proxy: `rules proxy: ${message}`, finding: data };
}

/**
 * What a verifier shows for a broken reply: a body without the contract's keys, so every
 * verifier prints it in its diff — one line per breach. (The breaches as data are in the
 * proxy's JSON report; here they would only make the diff longer.)
 */
export function brokenReplyBody(sellerStatus: number, check: ReplyCheck) {
  const breaches = breachesOf(check);
  return {
    rules_proxy: `the seller's reply (HTTP ${sellerStatus}) breaks the gateway's reply rules: ${[...new Set(breaches.map((b) => b.rule))].join(', ')}`,
    broken: breaches.map(breachLine),
  };
}

export interface RulesProxyApp {
  app: Hono;
  /** Abandons every request still waiting for the seller. */
  abandon(): void;
  /** Resolves when no late reply is awaited any more, or after `maxMs`. */
  settled(maxMs: number): Promise<void>;
}

/** The options with their defaults filled in. */
type ProxySettings = RulesProxyOptions & { timeoutMs: number; maxReplyBytes: number };

/** One request waiting for the seller, as abandon() and settled() see it. */
interface InFlight {
  controller: AbortController;
  done: Promise<unknown>;
  /** The run is over and this answer still has not come: say so on its exchange. */
  giveUp(): void;
}

/** How the proxy answers the verifier, with the exchange it reported (a stop reported its own). */
type ProxyOutcome = { kind: 'stopped' } | ReportedOutcome;
type ReportedOutcome =
  | { kind: 'timeout'; exchange: Exchange }
  | { kind: 'unreachable'; exchange: Exchange; problem: string }
  | { kind: 'finding'; exchange: Exchange; finding: ReplyFinding }
  | { kind: 'relay'; exchange: Exchange; reply: Extract<JudgedReply, { kind: 'json' }> };

const TIMED_OUT = { kind: 'timeout' } as const;

export function createRulesProxy(options: RulesProxyOptions): RulesProxyApp {
  const settings: ProxySettings = {
    ...options,
    timeoutMs: options.timeoutMs ?? 30_000,
    maxReplyBytes: options.maxReplyBytes ?? DEFAULT_MAX_REPLY_BYTES,
  };
  const inFlight = new Set<InFlight>();
  let arrivals = 0;
  const app = new Hono();
  app.use('*', inertReplies());
  for (const route of options.routes ?? []) app.route(route.path, route.app);
  app.all('*', refuseCrossSiteAndNonJson('rules proxy'), async (c) => {
    const arrival = await arrive(c, () => ++arrivals, settings);
    return answerVerifier(c, await proxyExchange(arrival, settings, inFlight), settings);
  });
  return {
    app,
    abandon: () => {
      for (const { controller, giveUp } of inFlight) {
        giveUp();
        controller.abort();
      }
    },
    settled: async (maxMs) => {
      await withinMs(Promise.allSettled([...inFlight].map((p) => p.done)), maxMs, undefined);
    },
  };
}

/** Reads the request: its body (numbered once read), service and the headers that go on to the seller. */
async function arrive(c: Context, nextIndex: () => number, settings: ProxySettings): Promise<Arrival> {
  const started = performance.now();
  const tag = settings.tag?.();
  const text = await c.req.text();
  const index = nextIndex();
  const request = parsedOrText(text);
  const service = serviceOf(request);
  const headers: Record<string, string> = {};
  c.req.raw.headers.forEach((value, name) => {
    if (!NOT_FORWARDED.has(name)) headers[name] = value;
  });
  Object.assign(headers, settings.headers);
  return {
    index,
    started,
    tag,
    text,
    request,
    service,
    operation: service === undefined ? undefined : operationOfService(service),
    headers,
  };
}

function parsedOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

const serviceOf = (request: unknown): string | undefined =>
  typeof request === 'object' && request !== null && 'service' in request && typeof request.service === 'string'
    ? request.service
    : undefined;

/** Forwards the request, waits for the seller up to the limit, and reports the exchange (once). */
async function proxyExchange(
  arrival: Arrival,
  settings: ProxySettings,
  inFlight: Set<InFlight>,
): Promise<ProxyOutcome> {
  const controller = new AbortController();
  const answer = forwardToSeller(arrival, settings.sellerUrl, settings.maxReplyBytes, controller.signal);
  const report = oneReport(arrival, settings.onExchange);
  const entry: InFlight = { controller, done: answer, giveUp: report.giveUp };
  inFlight.add(entry);
  void answer.finally(() => inFlight.delete(entry));

  const first = await withinMs(answer, settings.timeoutMs, TIMED_OUT);
  // Already reported as unfinished by a stop (abandon): the seller's answer, if any, is not relayed.
  if (report.stopped()) return { kind: 'stopped' };
  const outcome = outcomeOf(first, arrival, settings);
  report.answered(outcome.exchange);
  if (outcome.kind === 'timeout') void followLateAnswer(answer, outcome.exchange, controller.signal, arrival, settings);
  return outcome;
}

/**
 * An exchange is reported once: when the proxy answers the verifier, or by a stop that comes
 * first (unfinished, never left out). A stop after a timeout notes the answer still missing.
 */
function oneReport(arrival: Arrival, onExchange: ((exchange: Exchange) => void) | undefined) {
  let reported: Exchange | undefined;
  return {
    stopped: () => reported !== undefined,
    answered: (exchange: Exchange) => {
      reported = exchange;
      onExchange?.(exchange);
    },
    giveUp: () => {
      const ms = elapsedSince(arrival);
      if (reported !== undefined) {
        reported.late ??= `still no answer after ${ms} ms, when the run ended`;
        return;
      }
      const problem = `unfinished: the proxy was stopped after ${ms} ms, before the seller answered`;
      reported = { ...exchangeBase(arrival, ms), proxyAnswer: 'stopped', problem };
      onExchange?.(reported);
    },
  };
}

/** What every exchange records from its arrival; `status` 0 until the seller's answer says otherwise. */
const exchangeBase = (arrival: Arrival, elapsedMs: number): Exchange => ({
  index: arrival.index,
  service: arrival.service,
  operation: arrival.operation,
  request: arrival.request,
  status: 0,
  elapsedMs,
  ...(arrival.tag !== undefined ? { tag: arrival.tag } : {}),
});

/** The exchange as of the proxy's answer: no answer in time, no connection, a reply not relayed, or one judged. */
function outcomeOf(first: SellerAnswer | typeof TIMED_OUT, arrival: Arrival, settings: ProxySettings): ReportedOutcome {
  const base = exchangeBase(arrival, elapsedSince(arrival));
  switch (first.kind) {
    case 'timeout': {
      const problem = `no answer within ${settings.timeoutMs} ms (the limit, --timeout)`;
      return { kind: 'timeout', exchange: { ...base, proxyAnswer: 'timeout', limitMs: settings.timeoutMs, problem } };
    }
    case 'unreachable': {
      // Closed after taking the request is the seller's doing, not a connection that never opened.
      const problem = callFailureText(first.failure, settings.sellerUrl);
      const proxyAnswer = first.failure.kind === 'closed' ? 'closed' : 'unreachable';
      return { kind: 'unreachable', problem, exchange: { ...base, proxyAnswer, problem } };
    }
    case 'reply': {
      const judged = judgeReply(first, arrival);
      if (judged.kind === 'finding')
        return {
          kind: 'finding',
          finding: judged.finding,
          exchange: { ...base, ...judged.fields, proxyAnswer: judged.finding.rule },
        };
      return { kind: 'relay', reply: judged, exchange: { ...base, ...judged.fields } };
    }
  }
}

/**
 * A seller that answers after the limit: its reply is still judged,
 * on the same exchange (updated in place, then onLateReply).
 */
async function followLateAnswer(
  answer: Promise<SellerAnswer>,
  timedOut: Exchange,
  abandoned: AbortSignal,
  arrival: Arrival,
  settings: ProxySettings,
) {
  const late = await answer;
  if (abandoned.aborted) return;
  const answeredAfterMs = elapsedSince(arrival);
  timedOut.answeredAfterMs = answeredAfterMs;
  if (late.kind === 'reply') {
    // The rules are still applied to the late reply; the timeout stays the exchange's problem.
    const { problem, ...judged } = judgeReply(late, arrival).fields;
    Object.assign(timedOut, judged);
    timedOut.late = `answered after ${answeredAfterMs} ms, over the limit of ${settings.timeoutMs} ms${problem !== undefined ? `; ${problem}` : ''}`;
  } else
    timedOut.late =
      late.failure.kind === 'closed'
        ? `then ${closedText(late.failure.detail)}`
        : `then the connection failed: ${late.message}`;
  settings.onLateReply?.(timedOut);
}

/**
 * The verifier's answer: the proxy's own JSON when it answers for the seller, else the seller's JSON reply unchanged.
 */
function answerVerifier(c: Context, outcome: ProxyOutcome, settings: ProxySettings): Response {
  switch (outcome.kind) {
    case 'stopped':
      return c.json({ rules_proxy: 'rules proxy: stopped before the seller answered' }, 503);
    case 'timeout':
      return c.json({ rules_proxy: `rules proxy: the seller did not answer within ${settings.timeoutMs} ms` }, 504);
    case 'unreachable':
      // The proxy's own answer, named as such: the seller never answered.
      return c.json({ rules_proxy: `rules proxy: ${outcome.problem}` }, 502);
    case 'finding':
      // Never relayed, --pass-broken or not: an HTML page here would run on the proxy's origin.
      return c.json(findingBody(outcome.finding), 502);
    case 'relay': {
      const { status, text, contentType, check } = outcome.reply;
      if (settings.rejectBroken === true && check !== undefined && !check.ok)
        return c.json(brokenReplyBody(status, check), 502);
      // Only JSON gets here (declared and parsed), with the seller's own JSON content type.
      return new Response(text, { status, headers: { 'content-type': contentType ?? 'application/json' } });
    }
  }
}

/** `promise`'s value, or `instead` when it has not settled within `ms`; the timer never outlives the race. */
async function withinMs<T, U>(promise: Promise<T>, ms: number, instead: U): Promise<T | U> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([promise, new Promise<U>((resolve) => (timer = setTimeout(() => resolve(instead), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

export interface RunningRulesProxy {
  url: string;
  /** Waits up to `maxMs` for late replies still coming. */
  settled(maxMs: number): Promise<void>;
  /** Abandons requests still waiting for the seller, stops listening. */
  close(): Promise<void>;
}

export interface StartRulesProxyOptions extends RulesProxyOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0: any free port (the bound one is in `url`). */
  port?: number;
}

/**
 * Starts the rules proxy: put it between any Pact verifier and your seller system. Each request
 * is forwarded unchanged to `sellerUrl`, each reply checked against the contract's reply rules
 * and handed back (with `rejectBroken`, a broken one is answered 502 naming each breach).
 */
export async function startRulesProxy(options: StartRulesProxyOptions): Promise<RunningRulesProxy> {
  const { host = '127.0.0.1', port = 0, ...proxyOptions } = options;
  const proxy = createRulesProxy(proxyOptions);
  const served = await listen(proxy.app.fetch, { host, port });
  return {
    url: served.url,
    settled: proxy.settled,
    close: async () => {
      proxy.abandon();
      await served.close();
    },
  };
}
