import { DEFAULT_AUTH_CONFIG } from './auth/token-verifier';
import { gatewayConfig, type GatewayConfig } from './config';
import { DEFAULT_PROTECTION_CONFIG } from './protection/protection-config';

// The gateway's settings from the environment, in one place. The store's own variables
// (DATABASE_URL, GATEWAY_DATA_DIR, GATEWAY_SEED) are read by gateway/store.

export interface ServerSettings {
  port: number;
  host: string;
  /** Per-request JSON log lines on stdout; GATEWAY_LOG=off silences them (benchmarks). */
  requestLog: boolean;
  /** How long shutdown waits for in-flight requests before giving up. */
  shutdownGraceMs: number;
  directoryTtlMs: number | undefined;
  config: GatewayConfig;
}

const list = (value: string | undefined) => (value ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '');

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 0): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be an integer ≥ ${min}, got '${raw}'`);
  return value;
}

export function serverSettings(env: NodeJS.ProcessEnv = process.env): ServerSettings {
  const audience = list(env.JWT_AUDIENCE);
  return {
    port: integer(env, 'GATEWAY_PORT', 8080),
    host: env.GATEWAY_HOST?.trim() || '127.0.0.1',
    requestLog: !/^(off|false|0|no)$/i.test(env.GATEWAY_LOG?.trim() ?? ''),
    shutdownGraceMs: integer(env, 'GATEWAY_SHUTDOWN_GRACE_MS', 10_000),
    directoryTtlMs: env.DIRECTORY_TTL_MS === undefined ? undefined : integer(env, 'DIRECTORY_TTL_MS', 30_000),
    config: gatewayConfig({
      auth: {
        audience: audience.length > 0 ? audience : DEFAULT_AUTH_CONFIG.audience,
        maxLifetimeSeconds: integer(env, 'JWT_MAX_LIFETIME_SECONDS', DEFAULT_AUTH_CONFIG.maxLifetimeSeconds, 1),
        clockSkewSeconds: integer(env, 'JWT_CLOCK_SKEW_SECONDS', DEFAULT_AUTH_CONFIG.clockSkewSeconds),
      },
      lenientMembers: list(env.GATEWAY_LENIENT_MEMBERS),
      orderWaitMs: integer(env, 'GATEWAY_ORDER_WAIT_MS', 15_000),
      orderStaleMarginMs: integer(env, 'GATEWAY_ORDER_STALE_MARGIN_MS', 60_000),
      forwardHeaders: list(env.GATEWAY_FORWARD_HEADERS).map((h) => h.toLowerCase()),
      // ---- protection (issue 13): limits, seller protection, rate limits; defaults in protection/protection-config.ts
      protection: {
        maxBodyBytes: integer(env, 'GATEWAY_MAX_BODY_BYTES', DEFAULT_PROTECTION_CONFIG.maxBodyBytes, 1),
        maxInquiryItems: integer(env, 'GATEWAY_MAX_INQUIRY_ITEMS', DEFAULT_PROTECTION_CONFIG.maxInquiryItems, 1),
        maxOrderLines: integer(env, 'GATEWAY_MAX_ORDER_LINES', DEFAULT_PROTECTION_CONFIG.maxOrderLines, 1),
        breakerFailures: integer(env, 'GATEWAY_BREAKER_FAILURES', DEFAULT_PROTECTION_CONFIG.breakerFailures, 1),
        breakerCooldownMs: integer(env, 'GATEWAY_BREAKER_COOLDOWN_MS', DEFAULT_PROTECTION_CONFIG.breakerCooldownMs, 1),
        memberConcurrency: integer(env, 'GATEWAY_MEMBER_CONCURRENCY', DEFAULT_PROTECTION_CONFIG.memberConcurrency, 1),
        rateLimit: integer(env, 'GATEWAY_RATE_LIMIT', DEFAULT_PROTECTION_CONFIG.rateLimit, 1),
        rateLimitWindowMs: integer(env, 'GATEWAY_RATE_LIMIT_WINDOW_MS', DEFAULT_PROTECTION_CONFIG.rateLimitWindowMs, 1_000),
        rateLimitInstances: integer(env, 'GATEWAY_RATE_LIMIT_INSTANCES', DEFAULT_PROTECTION_CONFIG.rateLimitInstances, 1),
      },
      // ---- end protection
    }),
  };
}
