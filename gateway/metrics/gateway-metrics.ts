import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Violation } from '../../contracts/index';
import type { Queryable } from '../store/store';
import type { SellerOutcome } from '../seller-client/seller-client.types';
import type { BreakerState, CircuitBreakers } from '../protection/circuit-breaker';
import { countMailByState } from '../mail/outbox';
import { replyCounters } from './reply-counters';

// What the gateway is doing, for Prometheus: one registry per gateway process (never
// prom-client's global one, so tests and several apps in one process do not collide),
// served at /metrics on the internal port (internal-api.ts). What each metric is for:
// docs/gateway/production.md, "Metrics".

export interface GatewayMetrics {
  registry: Registry;
  /** One buyer request answered: the route pattern (not the raw path, to bound the labels). */
  request(route: string, method: string, status: number, seconds: number): void;
  sellerCall(memberId: string, outcome: SellerOutcome): void;
  sellerRefused(memberId: string, reason: 'circuit-open' | 'busy'): void;
  violations(memberId: string, violations: readonly Violation[]): void;
  /** One seller reply judged, and the rules it broke (each once): conformance with its denominator. */
  replyJudged(memberId: string, operation: string, broken: readonly string[]): void;
  /** Breaker states are read at each scrape from the gateway's breakers. */
  watchBreakers(breakers: CircuitBreakers): void;
}

const BREAKER_VALUE: Record<BreakerState, number> = { closed: 0, 'half-open': 1, open: 2 };

export interface GatewayMetricsOptions {
  /** When given, the mail outbox's depth by state is read from it at each scrape. */
  store?: Queryable;
  /** Node process metrics (memory, event loop lag, GC); default true. */
  processMetrics?: boolean;
}

export function createGatewayMetrics(options: GatewayMetricsOptions = {}): GatewayMetrics {
  const registry = new Registry();
  if (options.processMetrics !== false) collectDefaultMetrics({ register: registry });
  const requests = requestCounters(registry);
  const sellers = sellerCounters(registry);
  const replies = replyCounters(registry, options.store);
  const watched: CircuitBreakers[] = [];
  breakerGauge(registry, watched);
  if (options.store !== undefined) outboxGauge(registry, options.store);

  return {
    registry,
    request(route, method, status, seconds) {
      requests.count.inc({ route, method, status: String(status) });
      requests.latency.observe({ route, method }, seconds);
    },
    sellerCall(member, outcome) {
      sellers.latency.observe({ member, outcome: outcome.kind }, outcome.elapsedMs / 1000);
    },
    sellerRefused(member, reason) {
      sellers.refused.inc({ member, reason });
    },
    violations(member, list) {
      for (const v of list) sellers.violations.inc({ rule: v.rule, member });
    },
    replyJudged: replies.judged,
    watchBreakers(breakers) {
      watched.push(breakers);
    },
  };
}

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Buyer requests: counted and timed by route pattern. */
function requestCounters(registry: Registry) {
  return {
    count: new Counter({
      name: 'gateway_http_requests_total',
      help: 'Buyer requests answered, by route pattern, method and HTTP status',
      labelNames: ['route', 'method', 'status'],
      registers: [registry],
    }),
    latency: new Histogram({
      name: 'gateway_http_request_duration_seconds',
      help: 'Time to answer a buyer request, by route pattern and method',
      labelNames: ['route', 'method'],
      buckets: LATENCY_BUCKETS,
      registers: [registry],
    }),
  };
}

/** Seller calls by member: timed by outcome, refused by the gateway itself, and the reply rules their replies broke. */
function sellerCounters(registry: Registry) {
  return {
    latency: new Histogram({
      name: 'gateway_seller_call_duration_seconds',
      help: 'Seller calls by member and outcome (reply, timeout, unreachable, http-error, malformed); _count is the number of calls',
      labelNames: ['member', 'outcome'],
      buckets: LATENCY_BUCKETS,
      registers: [registry],
    }),
    refused: new Counter({
      name: 'gateway_seller_calls_refused_total',
      help: 'Seller calls the gateway refused itself, by member and reason (circuit-open, busy)',
      labelNames: ['member', 'reason'],
      registers: [registry],
    }),
    violations: new Counter({
      name: 'gateway_reply_rule_violations_total',
      help: 'Reply-rule violations in seller replies, by rule and member',
      labelNames: ['rule', 'member'],
      registers: [registry],
    }),
  };
}

/** Each member's breaker state, read at each scrape from the breakers watched. */
function breakerGauge(registry: Registry, watched: readonly CircuitBreakers[]): void {
  new Gauge({
    name: 'gateway_circuit_breaker_state',
    help: "Each member's circuit breaker: 0 closed, 1 half-open, 2 open",
    labelNames: ['member'],
    registers: [registry],
    collect() {
      this.reset();
      for (const breakers of watched)
        for (const [member, state] of breakers.states()) this.set({ member }, BREAKER_VALUE[state]);
    },
  });
}

/** The mail outbox's depth by state, read from the store at each scrape. */
function outboxGauge(registry: Registry, store: Queryable): void {
  new Gauge({
    name: 'gateway_mail_outbox_messages',
    help: 'Mail outbox messages by state (pending is the depth still to send)',
    labelNames: ['state'],
    registers: [registry],
    async collect() {
      // A scrape while the store is down still answers, without this gauge's values.
      const counts = await countMailByState(store).catch(() => undefined);
      this.reset();
      if (counts !== undefined) for (const [state, n] of Object.entries(counts)) this.set({ state }, n);
    },
  });
}
