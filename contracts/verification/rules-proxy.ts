import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { checkSellerReply, type ForwardedOperation, type ReplyCheck } from '../reply-check';
import { SERVICE_OF } from '../schemas/index';
import { breachesOf, breachLine } from './proxy-report';

// The rules-checking proxy: the Pact verifier talks to it as if it were the seller; it
// forwards each request, unchanged, to the seller's real URL, applies the contract core's
// reply rules to the (request, reply) pair, and hands the reply back unchanged. So the id
// echo and original_part/original_mfr rules are checked on the seller's own data, which
// Pact cannot do for injected values.

const OPERATION_OF_SERVICE = new Map<string, ForwardedOperation>(
  Object.entries(SERVICE_OF).map(([operation, service]) => [service, operation as ForwardedOperation]),
);
/** Hop-by-hop and length headers are the proxy's own business. */
const NOT_FORWARDED = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive', 'accept-encoding']);

export interface Exchange {
  /** 1-based order of arrival. */
  index: number;
  service?: string;
  operation?: ForwardedOperation;
  request: unknown;
  /** HTTP status from the seller, 0 when it could not be reached. */
  status: number;
  reply?: unknown;
  /** The rules' verdict; absent when the reply could not be checked (see `problem`). */
  check?: ReplyCheck;
  /** Why the exchange could not be checked: seller unreachable, HTTP error, not JSON. */
  problem?: string;
  elapsedMs: number;
}

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
  onExchange?: (exchange: Exchange) => void;
  timeoutMs?: number;
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

export function createRulesProxy(options: RulesProxyOptions): Hono {
  const app = new Hono();
  let count = 0;

  app.all('*', async (c) => {
    const started = performance.now();
    const text = await c.req.text();
    const index = ++count;
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
    const service = typeof (body as { service?: unknown })?.service === 'string' ? (body as { service: string }).service : undefined;
    const operation = service === undefined ? undefined : OPERATION_OF_SERVICE.get(service);

    const headers: Record<string, string> = {};
    c.req.raw.headers.forEach((value, name) => {
      if (!NOT_FORWARDED.has(name)) headers[name] = value;
    });
    Object.assign(headers, options.headers);

    const record = (exchange: Omit<Exchange, 'index' | 'service' | 'operation' | 'request' | 'elapsedMs'>) =>
      options.onExchange?.({ index, service, operation, request: body, elapsedMs: Math.round(performance.now() - started), ...exchange });

    let status: number;
    let replyText: string;
    let contentType: string | undefined;
    try {
      const response = await request(options.sellerUrl, {
        method: 'POST',
        headers,
        body: text,
        headersTimeout: options.timeoutMs ?? 30_000,
        bodyTimeout: options.timeoutMs ?? 30_000,
      });
      status = response.statusCode;
      replyText = await response.body.text();
      const type = response.headers['content-type'];
      contentType = Array.isArray(type) ? type[0] : type;
    } catch (error) {
      const problem = `the seller at ${options.sellerUrl} could not be reached: ${(error as Error).message}`;
      record({ status: 0, problem });
      // The proxy's own answer, named as such: the seller never answered.
      return c.json({ rules_proxy: `rules proxy: ${problem}` }, 502);
    }

    let reply: unknown;
    let problem: string | undefined;
    try {
      reply = JSON.parse(replyText);
    } catch {
      problem = `the reply is not JSON (HTTP ${status}): ${replyText.slice(0, 200)}`;
    }
    if (problem === undefined && (status < 200 || status > 299)) problem = `the seller answered HTTP ${status}`;
    if (problem === undefined && operation === undefined) problem = `the request names no forwarded service ('${service ?? ''}')`;
    const check = problem === undefined ? checkSellerReply(operation!, body, reply) : undefined;
    record({ status, reply, check, problem });

    if (options.rejectBroken === true && check !== undefined && !check.ok) return c.json(brokenReplyBody(status, check), 502);
    return new Response(replyText, { status, headers: contentType === undefined ? {} : { 'content-type': contentType } });
  });
  return app;
}

export interface RunningRulesProxy {
  url: string;
  close(): Promise<void>;
}

export async function startRulesProxy(options: RulesProxyOptions, host = '127.0.0.1', port = 0): Promise<RunningRulesProxy> {
  const app = createRulesProxy(options);
  const server = await new Promise<Server>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port, hostname: host }, () => resolve(s as Server)) as Server;
    s.once('error', reject);
  });
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://${host}:${bound}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
