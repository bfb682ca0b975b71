import { DEFAULT_AUTH_CONFIG, type AuthConfig } from './auth/token-verifier';
import { DEFAULT_PROTECTION_CONFIG, type ProtectionConfig } from './protection/protection-config';

/** What a gateway instance can be told; server.ts fills it from the environment. */
export interface GatewayConfig {
  auth: AuthConfig;
  /**
   * Members whose replies are passed on despite broken reply rules (with a warning header
   * and a log line), in addition to members whose directory entry says lenient.
   */
  lenientMembers: string[];
  /** How long a repeated order waits for its first attempt, still in flight, to finish. */
  orderWaitMs: number;
  /**
   * An order still received or forwarded this long after its seller's deadline (member
   * timeout + this margin since it was claimed or sent) was left by an attempt that stopped
   * (a crashed instance): it is no longer in flight. Covers clock skew between instances.
   */
  orderStaleMarginMs: number;
  /**
   * Buyer request headers passed on to seller systems (lower case). Empty by default; `npm
   * start` passes `x-mock-fault` so a developer can make the mock seller misbehave per request.
   */
  forwardHeaders: string[];
  /** Request limits, seller protection (breaker, concurrency cap) and rate limits. */
  protection: ProtectionConfig;
}

export const DEFAULT_GATEWAY_CONFIG: GatewayConfig = {
  auth: DEFAULT_AUTH_CONFIG,
  lenientMembers: [],
  orderWaitMs: 15_000,
  orderStaleMarginMs: 60_000,
  forwardHeaders: [],
  protection: DEFAULT_PROTECTION_CONFIG,
};

export function gatewayConfig(
  overrides: { auth?: Partial<AuthConfig>; protection?: Partial<ProtectionConfig> } & Partial<
    Omit<GatewayConfig, 'auth' | 'protection'>
  > = {},
): GatewayConfig {
  return {
    ...DEFAULT_GATEWAY_CONFIG,
    ...overrides,
    auth: { ...DEFAULT_AUTH_CONFIG, ...overrides.auth },
    protection: { ...DEFAULT_PROTECTION_CONFIG, ...overrides.protection },
  };
}
