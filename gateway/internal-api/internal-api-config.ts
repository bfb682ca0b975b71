import { Type } from '@sinclair/typebox';
import { EnvInteger, EnvString, EnvUrl, Optional, readEnvironment } from '../../shared/environment';

// The internal API's settings, read from the environment in one place (its schema below).

/** Development only: documented in docs/internal-api.md; refused when NODE_ENV=production. */
export const DEV_INTERNAL_API_TOKEN = 'dev-internal-token-not-for-production';
export const DEFAULT_INTERNAL_PORT = 8081;
const MIN_TOKEN_LENGTH = 16;

export interface InternalApiConfig {
  token: string;
  /** This API's URL as its callers reach it, the server of its OpenAPI document; default the request's origin. */
  publicUrl?: string;
}

export interface InternalServerConfig extends InternalApiConfig {
  port: number;
  hostname: string;
}

export const INTERNAL_API_ENVIRONMENT = Type.Object({
  INTERNAL_API_TOKEN: Optional(
    EnvString({
      minLength: MIN_TOKEN_LENGTH,
      defaultText: '(development token; required in production)',
      secret: true,
      description: 'the internal API credential (Authorization: Bearer …); also what npm run keys / outbox send',
    }),
  ),
  INTERNAL_PORT: EnvInteger({
    default: DEFAULT_INTERNAL_PORT,
    maximum: 65_535,
    description: 'internal API port (0: any free port)',
  }),
  INTERNAL_HOST: EnvString({
    default: '127.0.0.1',
    description: 'address the internal API listens on (not exposed unless asked)',
  }),
  INTERNAL_PUBLIC_URL: Optional(
    EnvUrl({
      description:
        "the internal API's URL as its callers reach it (behind a proxy), the server of its OpenAPI document; default the request's origin",
    }),
  ),
  NODE_ENV: Optional(
    EnvString({
      description: 'production refuses the development internal token, and the gateway requires GATEWAY_PUBLIC_URL',
    }),
  ),
});

export function internalApiConfigFromEnv(env: NodeJS.ProcessEnv = process.env): InternalServerConfig {
  const { INTERNAL_API_TOKEN, INTERNAL_PORT, INTERNAL_HOST, INTERNAL_PUBLIC_URL, NODE_ENV } = readEnvironment(
    INTERNAL_API_ENVIRONMENT,
    env,
  );
  if (INTERNAL_API_TOKEN === undefined && NODE_ENV === 'production') {
    throw new Error('INTERNAL_API_TOKEN must be set in production (the development default is public)');
  }
  return {
    token: INTERNAL_API_TOKEN ?? DEV_INTERNAL_API_TOKEN,
    port: INTERNAL_PORT,
    hostname: INTERNAL_HOST,
    publicUrl: INTERNAL_PUBLIC_URL,
  };
}
