import { Hono } from 'hono';
import { request } from 'undici';
import { checkSellerReply, type ForwardedOperation, type ReplyCheck } from '../contracts/reply-check';
import { operationOfService } from '../contracts/operation-of-service';
import { breachesOf, breachLine } from './rules-proxy-report';
import type { Exchange } from './proxied-exchange';
import { listen } from '../shared/http/listen';
import { refuseCrossSiteAndNonJson } from './json-request-guard';
import { inertReplies } from './proxy-reply-headers';
import { notJsonFinding, tooLargeFinding, type ReplyFinding } from './reply-findings';
import { DEFAULT_MAX_REPLY_BYTES, readReplyWithin, type LimitedReply } from './reply-within-limit';

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
const NOT_FORWARDED = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive', 'accept-encoding']);

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
  /** The largest reply read from the seller (default 8 MiB); past it the exchange is stopped, a `reply.too-large` finding. */
  maxReplyBytes?: number;
  /** Tags each exchange on arrival (e.g. with the interaction under way). */
  tag?: () => string | undefined;
  /** Apps served on the proxy's port under these paths instead of being relayed (e.g. an inspector page). */
  routes?: { path: string; app: Hono }[];
}

type SellerAnswer = { kind: 'reply'; status: number; body: LimitedReply; contentType?: string } | { kind: 'unreachable'; message: string };

/** Reads what the seller answered into the exchange's fields: reply, the rules' verdict, or why it could not be checked. */
function judge(answer: SellerAnswer & { kind: 'reply' }, operation: ForwardedOperation | undefined, service: string | undefined, request: unknown) {
  const { status, body } = answer;
  const finding = body.kind === 'too-large' ? tooLargeFinding(status, body.limit, body.bytesRead) : notJsonFinding(status, answer.contentType, body.text);
  if (finding !== undefined) return { status, finding, problem: finding.message };
  const reply: unknown = JSON.parse((body as LimitedReply & { kind: 'whole' }).text);
  let problem: string | undefined;
  if (status < 200 || status > 299) problem = `the seller answered HTTP ${status}`;
  if (problem === undefined && operation === undefined) problem = `the request names no forwarded service ('${service ?? ''}')`;
  const check = problem === undefined ? checkSellerReply(operation!, request, reply) : undefined;
  return { status, reply, check, problem };
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

export function createRulesProxy(options: RulesProxyOptions): RulesProxyApp {
  const app = new Hono();
  const timeoutMs = options.timeoutMs ?? 30_000;
  const maxReplyBytes = options.maxReplyBytes ?? DEFAULT_MAX_REPLY_BYTES;
  const pending = new Set<{ controller: AbortController; done: Promise<unknown>; giveUp: () => void }>();
  let count = 0;
  app.use('*', inertReplies());
  for (const route of options.routes ?? []) app.route(route.path, route.app);

  app.all('*', refuseCrossSiteAndNonJson('rules proxy'), async (c) => {
    const started = performance.now();
    const tag = options.tag?.();
    const text = await c.req.text();
    const index = ++count;
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
    const service = typeof (body as { service?: unknown })?.service === 'string' ? (body as { service: string }).service : undefined;
    const operation = service === undefined ? undefined : operationOfService(service);

    const headers: Record<string, string> = {};
    c.req.raw.headers.forEach((value, name) => {
      if (!NOT_FORWARDED.has(name)) headers[name] = value;
    });
    Object.assign(headers, options.headers);

    const elapsed = () => Math.round(performance.now() - started);
    const controller = new AbortController();
    const answer: Promise<SellerAnswer> = (async () => {
      try {
        // No undici timeouts: the one limit is ours, below; close() aborts what is left.
        const response = await request(options.sellerUrl, {
          method: 'POST',
          headers,
          body: text,
          signal: controller.signal,
          headersTimeout: 0,
          bodyTimeout: 0,
        });
        const type = response.headers['content-type'];
        // Counted while it streams; leaving the read early drops the connection.
        const body = await readReplyWithin(response.body, maxReplyBytes);
        return { kind: 'reply', status: response.statusCode, body, contentType: Array.isArray(type) ? type[0] : type };
      } catch (error) {
        return { kind: 'unreachable', message: (error as Error).message };
      }
    })();
    let exchange: Exchange | undefined;
    const entry = {
      controller,
      done: answer,
      // The run is over and this answer still has not come: say so on its exchange.
      giveUp: () => {
        if (exchange === undefined) {
          // Stopped while the seller was still answering: reported as unfinished, never left out.
          exchange = {
            index,
            service,
            operation,
            request: body,
            status: 0,
            elapsedMs: elapsed(),
            ...(tag !== undefined ? { tag } : {}),
            proxyAnswer: 'stopped',
            problem: `unfinished: the proxy was stopped after ${elapsed()} ms, before the seller answered`,
          };
          options.onExchange?.(exchange);
        } else if (exchange.late === undefined) exchange.late = `still no answer after ${elapsed()} ms, when the run ended`;
      },
    };
    pending.add(entry);
    void answer.finally(() => pending.delete(entry));

    let timer: NodeJS.Timeout | undefined;
    const first = await Promise.race([answer, new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)))]);
    clearTimeout(timer);
    // Already reported as unfinished by a stop (abandon): the seller's answer, if any, is not relayed.
    if (exchange !== undefined) return c.json({ rules_proxy: 'rules proxy: stopped before the seller answered' }, 503);
    exchange = { index, service, operation, request: body, status: 0, elapsedMs: elapsed(), ...(tag !== undefined ? { tag } : {}) };

    if (first === 'timeout') {
      exchange.proxyAnswer = 'timeout';
      exchange.limitMs = timeoutMs;
      exchange.problem = `no answer within ${timeoutMs} ms (the limit, --timeout)`;
      options.onExchange?.(exchange);
      const timedOut = exchange;
      void answer.then((late) => {
        if (controller.signal.aborted) return;
        timedOut.answeredAfterMs = elapsed();
        if (late.kind === 'reply') {
          // The rules are still applied to the late reply; the timeout stays the exchange's problem.
          const { problem, ...judged } = judge(late, operation, service, body);
          Object.assign(timedOut, judged);
          timedOut.late = `answered after ${timedOut.answeredAfterMs} ms, over the limit of ${timeoutMs} ms${problem !== undefined ? `; ${problem}` : ''}`;
        } else timedOut.late = `then the connection failed: ${late.message}`;
        options.onLateReply?.(timedOut);
      });
      return c.json({ rules_proxy: `rules proxy: the seller did not answer within ${timeoutMs} ms` }, 504);
    }
    if (first.kind === 'unreachable') {
      exchange.proxyAnswer = 'unreachable';
      exchange.problem = `the seller at ${options.sellerUrl} could not be reached: ${first.message}`;
      options.onExchange?.(exchange);
      // The proxy's own answer, named as such: the seller never answered.
      return c.json({ rules_proxy: `rules proxy: ${exchange.problem}` }, 502);
    }
    Object.assign(exchange, judge(first, operation, service, body));
    if (exchange.finding !== undefined) exchange.proxyAnswer = exchange.finding.rule;
    options.onExchange?.(exchange);
    // Never relayed, --pass-broken or not: an HTML page here would run on the proxy's origin.
    if (exchange.finding !== undefined) return c.json(findingBody(exchange.finding), 502);
    if (options.rejectBroken === true && exchange.check !== undefined && !exchange.check.ok) return c.json(brokenReplyBody(first.status, exchange.check), 502);
    // Only JSON gets here (declared and parsed), with the seller's own JSON content type.
    const relayed = (first.body as LimitedReply & { kind: 'whole' }).text;
    return new Response(relayed, { status: first.status, headers: { 'content-type': first.contentType ?? 'application/json' } });
  });

  return {
    app,
    abandon: () => {
      for (const { controller, giveUp } of pending) {
        giveUp();
        controller.abort();
      }
    },
    settled: async (maxMs) => {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([Promise.allSettled([...pending].map((p) => p.done)), new Promise((resolve) => (timer = setTimeout(resolve, maxMs)))]);
      clearTimeout(timer);
    },
  };
}

export interface RunningRulesProxy {
  url: string;
  /** Waits up to `maxMs` for late replies still coming. */
  settled(maxMs: number): Promise<void>;
  /** Abandons requests still waiting for the seller, stops listening. */
  close(): Promise<void>;
}

export async function startRulesProxy(options: RulesProxyOptions, host = '127.0.0.1', port = 0): Promise<RunningRulesProxy> {
  const proxy = createRulesProxy(options);
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
