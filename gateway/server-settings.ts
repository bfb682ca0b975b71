import { Type, type StaticDecode } from '@sinclair/typebox';
import {
  EnvChoiceList,
  EnvCount,
  EnvFlag,
  EnvInteger,
  EnvList,
  EnvString,
  EnvUrl,
  EnvironmentError,
  Optional,
  readEnvironment,
} from '../shared/environment';
import { DEFAULT_GATEWAY_CONFIG, type GatewayConfig } from './gateway-config';
import { STORE_ENVIRONMENT } from './store/store-config';
import { SPEEDUP_NAMES, speedups, type Speedups } from './speedups/speedups';
import { CONNECTION_ENVIRONMENT } from '../shared/http/connection-environment';
import { INTERNAL_API_ENVIRONMENT } from './internal-api/internal-api-config';
import {
  productionSellerAddresses,
  UNRESTRICTED_SELLER_ADDRESSES,
  type SellerAddressPolicy,
} from './seller-client/seller-address-policy';

const NODE_ENVIRONMENT = Type.Object({ NODE_ENV: INTERNAL_API_ENVIRONMENT.properties.NODE_ENV });

// The gateway's settings from the environment: one schema (with the store's variables, the
// gateway process's whole environment), read and checked once at start.

const DEFAULTS = DEFAULT_GATEWAY_CONFIG;
/**
 * 2 × HAProxy's check interval (500 ms) × its fall count (2), as
 * gateway/cluster/haproxy.cfg ships them (a test keeps them equal).
 */
export const DEFAULT_DRAIN_MS = 2 * 500 * 2;
const P = DEFAULTS.protection;

export const GATEWAY_ENVIRONMENT = Type.Object({
  GATEWAY_PORT: EnvInteger({ default: 8080, maximum: 65_535, description: 'buyer port (0: any free port)' }),
  GATEWAY_HOST: EnvString({ default: '127.0.0.1', description: 'address the buyer port listens on' }),
  GATEWAY_WORKERS: EnvCount({
    default: 1,
    description:
      'gateway processes sharing the buyer port (node:cluster); `auto`: one per CPU. Above 1 needs DATABASE_URL (the embedded store belongs to one process)',
  }),
  GATEWAY_PUBLIC_URL: Optional(
    EnvUrl({
      defaultText: '(required when NODE_ENV=production)',
      description:
        "the gateway's URL as browsers reach it, for catalog launch links; unset, only a loopback Host (localhost, 127.0.0.0/8, [::1]) gets a link, any other is refused (422)",
    }),
  ),
  GATEWAY_LOG: EnvFlag({ default: true, description: 'one JSON log line per request on stdout' }),
  GATEWAY_DRAIN_MS: EnvInteger({
    default: DEFAULT_DRAIN_MS,
    description:
      'on SIGTERM, how long the gateway keeps serving while /health answers 503 (reason `draining`) and every answer closes its ' +
      'connection, before it stops accepting: twice what the shipped gateway/cluster/haproxy.cfg needs to take an instance out ' +
      '(`inter 500ms` × `fall 2`). Raise it with a slower balancer check; 0: no drain. A second SIGTERM, or SIGINT, skips it',
  }),
  GATEWAY_SHUTDOWN_GRACE_MS: EnvInteger({
    default: 10_000,
    description: 'how long shutdown lets requests in flight finish',
  }),
  DIRECTORY_TTL_MS: Optional(
    EnvInteger({
      defaultText: '30000',
      description:
        'how long directory look-ups are cached (one read in the last fifth of that time reloads it in the background, so ' +
        'no request waits for the store when it ends); key, user and member writes reach every instance at once anyway (a ' +
        'PostgreSQL NOTIFY on commit drops each cache), so this is the fallback for changes made by hand in SQL',
    }),
  ),
  JWT_AUDIENCE: EnvList({
    default: [DEFAULTS.auth.audience].flat(),
    description: 'accepted `aud` values, comma-separated',
  }),
  JWT_MAX_LIFETIME_SECONDS: EnvInteger({
    default: DEFAULTS.auth.maxLifetimeSeconds,
    minimum: 1,
    description: 'longest token lifetime accepted (exp − iat)',
  }),
  JWT_CLOCK_SKEW_SECONDS: EnvInteger({
    default: DEFAULTS.auth.clockSkewSeconds,
    description: 'clock difference tolerated on iat/exp',
  }),
  GATEWAY_LENIENT_MEMBERS: EnvList({
    default: DEFAULTS.lenientMembers,
    description: 'member ids whose replies pass despite broken reply rules (with a warning)',
  }),
  GATEWAY_FORWARD_HEADERS: EnvList({
    default: DEFAULTS.forwardHeaders,
    lowerCase: true,
    defaultText: '(none; npm start: x-mock-fault)',
    description: 'buyer request headers passed on to seller systems, comma-separated',
  }),
  GATEWAY_ORDER_WAIT_MS: EnvInteger({
    default: DEFAULTS.orderWaitMs,
    description: 'how long a repeated order waits for its first attempt, still in flight',
  }),
  GATEWAY_ORDER_STALE_MARGIN_MS: EnvInteger({
    default: DEFAULTS.orderStaleMarginMs,
    description:
      "added to a member's timeout: an order in flight longer was left by a stopped instance (covers clock skew between instances)",
  }),
  GATEWAY_MAX_BODY_BYTES: EnvInteger({
    default: P.maxBodyBytes,
    minimum: 1,
    description: 'largest request body on any endpoint; a larger one is refused with 413 before it is read',
  }),
  GATEWAY_MAX_INQUIRY_ITEMS: EnvInteger({
    default: P.maxInquiryItems,
    minimum: 1,
    description: 'most items in one item inquiry (4422, rule `limit.items-per-inquiry`)',
  }),
  GATEWAY_MAX_ORDER_LINES: EnvInteger({
    default: P.maxOrderLines,
    minimum: 1,
    description: 'most lines in one order (4422, rule `limit.lines-per-order`)',
  }),
  GATEWAY_BREAKER_FAILURES: EnvInteger({
    default: P.breakerFailures,
    minimum: 1,
    description:
      "consecutive failures (timeout, unreachable, HTTP 5xx) of one member's seller that open its circuit breaker",
  }),
  GATEWAY_BREAKER_COOLDOWN_MS: EnvInteger({
    default: P.breakerCooldownMs,
    minimum: 1,
    description: 'how long an open breaker answers 5503 at once before one probe call is let through',
  }),
  GATEWAY_MEMBER_CONCURRENCY: EnvInteger({
    default: P.memberConcurrency,
    minimum: 1,
    description:
      "calls to one member's seller in flight at once, per instance; more are refused at once (5503). Each member has a " +
      'pool of 64 connections of its own (even when members share a seller host), so a hanging member never delays another',
  }),
  GATEWAY_MAX_SELLER_REPLY_BYTES: EnvInteger({
    default: P.maxSellerReplyBytes,
    minimum: 1_024,
    description:
      'largest seller reply body the gateway reads; a larger one is cut off and answered 502, status_code 5500, ' +
      'naming the member and the limit (a circuit-breaker failure). 8 MiB: 1.7× the largest reply a full inquiry can bring',
  }),
  GATEWAY_RATE_LIMIT: EnvInteger({
    default: P.rateLimit,
    minimum: 1,
    description: "requests per window per API client, unless the client's `api_clients.rate_limit` says otherwise",
  }),
  GATEWAY_RATE_LIMIT_WINDOW_MS: EnvInteger({
    default: P.rateLimitWindowMs,
    minimum: 1_000,
    description: 'the rate-limit window (fixed windows)',
  }),
  GATEWAY_RATE_LIMIT_INSTANCES: EnvInteger({
    default: P.rateLimitInstances,
    minimum: 1,
    description: 'gateway instances behind the load balancer: each allows a client `limit / instances` per window',
  }),
  GATEWAY_SPEEDUPS: EnvChoiceList(SPEEDUP_NAMES, {
    description:
      `what the gateway does only to be fast (docs/performance.md, "Speed-ups"): \`all\`, \`none\` or some of ` +
      `${SPEEDUP_NAMES.map((name) => `\`${name}\``).join(', ')}. Each left out is done the plain way, same answers, ` +
      'slower: to measure one, or to rule one out when an answer looks wrong',
  }),
  GATEWAY_ALLOWED_SELLER_HOSTS: EnvList({
    default: [],
    lowerCase: true,
    defaultText: '(none)',
    description:
      'with NODE_ENV=production, seller hosts (names as in the seller URL, comma-separated) that may resolve to a loopback, private, link-local or CGNAT address; ' +
      'every other seller URL must be https to a public address, checked when the directory is written and at every connect. Cloud metadata addresses stay refused',
  }),
  GATEWAY_AUTH_FAILURE_LIMIT: EnvInteger({
    default: P.authFailureLimit,
    minimum: 1,
    description:
      "requests failing authentication one client address may make per minute, per instance (in memory); past it 429 with Retry-After before the token is checked. Behind a load balancer its address is every client's",
  }),
});

/** Everything the gateway process reads: its own variables, the store's and its servers' connections'. */
export const GATEWAY_PROCESS_ENVIRONMENT = Type.Object({
  ...GATEWAY_ENVIRONMENT.properties,
  ...STORE_ENVIRONMENT.properties,
  ...CONNECTION_ENVIRONMENT.properties,
});

export interface ServerSettings {
  port: number;
  host: string;
  /** Per-request JSON log lines on stdout; GATEWAY_LOG=off silences them (benchmarks). */
  requestLog: boolean;
  /** How long SIGTERM keeps serving, /health at 503, before it stops accepting. */
  drainMs: number;
  /** How long shutdown waits for in-flight requests before giving up. */
  shutdownGraceMs: number;
  directoryTtlMs: number | undefined;
  publicUrl: string | undefined;
  /** Gateway processes on the port (GATEWAY_WORKERS; 1: this process alone). */
  workers: number;
  /** NODE_ENV=production: development keys refused, seller addresses judged (production-posture.ts). */
  production: boolean;
  /** Where seller calls may go: unrestricted in development. */
  sellerAddresses: SellerAddressPolicy;
  /** The speed-ups on (GATEWAY_SPEEDUPS); the plain way for the others. */
  speedups: Speedups;
  config: GatewayConfig;
}

export function settingsOf(env: StaticDecode<typeof GATEWAY_ENVIRONMENT>, production = false): ServerSettings {
  return {
    production,
    sellerAddresses: production
      ? productionSellerAddresses(env.GATEWAY_ALLOWED_SELLER_HOSTS)
      : UNRESTRICTED_SELLER_ADDRESSES,
    port: env.GATEWAY_PORT,
    host: env.GATEWAY_HOST,
    requestLog: env.GATEWAY_LOG,
    drainMs: env.GATEWAY_DRAIN_MS,
    shutdownGraceMs: env.GATEWAY_SHUTDOWN_GRACE_MS,
    directoryTtlMs: env.DIRECTORY_TTL_MS,
    publicUrl: env.GATEWAY_PUBLIC_URL,
    workers: env.GATEWAY_WORKERS,
    speedups: speedups(env.GATEWAY_SPEEDUPS),
    config: {
      auth: {
        audience: env.JWT_AUDIENCE,
        maxLifetimeSeconds: env.JWT_MAX_LIFETIME_SECONDS,
        clockSkewSeconds: env.JWT_CLOCK_SKEW_SECONDS,
        refuseDevelopmentKeys: production,
      },
      lenientMembers: env.GATEWAY_LENIENT_MEMBERS,
      orderWaitMs: env.GATEWAY_ORDER_WAIT_MS,
      orderStaleMarginMs: env.GATEWAY_ORDER_STALE_MARGIN_MS,
      forwardHeaders: env.GATEWAY_FORWARD_HEADERS,
      protection: {
        maxBodyBytes: env.GATEWAY_MAX_BODY_BYTES,
        maxInquiryItems: env.GATEWAY_MAX_INQUIRY_ITEMS,
        maxOrderLines: env.GATEWAY_MAX_ORDER_LINES,
        breakerFailures: env.GATEWAY_BREAKER_FAILURES,
        breakerCooldownMs: env.GATEWAY_BREAKER_COOLDOWN_MS,
        memberConcurrency: env.GATEWAY_MEMBER_CONCURRENCY,
        maxSellerReplyBytes: env.GATEWAY_MAX_SELLER_REPLY_BYTES,
        rateLimit: env.GATEWAY_RATE_LIMIT,
        rateLimitWindowMs: env.GATEWAY_RATE_LIMIT_WINDOW_MS,
        rateLimitInstances: env.GATEWAY_RATE_LIMIT_INSTANCES,
        authFailureLimit: env.GATEWAY_AUTH_FAILURE_LIMIT,
      },
    },
  };
}

/** The gateway's settings; throws EnvironmentError naming every variable set to something unusable. */
export function serverSettings(env: NodeJS.ProcessEnv = process.env): ServerSettings {
  const read = readEnvironment(GATEWAY_ENVIRONMENT, env);
  // Without it a launch link could only come from the request's Host header, which the client writes.
  // NODE_ENV is declared once, in the internal API's schema (docs/reference/environment.md lists it there).
  const { NODE_ENV } = readEnvironment(NODE_ENVIRONMENT, env);
  if (NODE_ENV === 'production' && read.GATEWAY_PUBLIC_URL === undefined) {
    throw new EnvironmentError([
      {
        name: 'GATEWAY_PUBLIC_URL',
        message: "GATEWAY_PUBLIC_URL must be set when NODE_ENV=production (the gateway's URL as browsers reach it)",
      },
    ]);
  }
  return settingsOf(read, NODE_ENV === 'production');
}

const ALLOWED_HOSTS_ENVIRONMENT = Type.Object({
  GATEWAY_ALLOWED_SELLER_HOSTS: GATEWAY_ENVIRONMENT.properties.GATEWAY_ALLOWED_SELLER_HOSTS,
});

/** GATEWAY_ALLOWED_SELLER_HOSTS alone, for the seeder (which runs in processes that read no other gateway variable). */
export const allowedSellerHosts = (env: NodeJS.ProcessEnv = process.env): string[] =>
  readEnvironment(ALLOWED_HOSTS_ENVIRONMENT, env).GATEWAY_ALLOWED_SELLER_HOSTS;
