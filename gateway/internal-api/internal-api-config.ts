// The internal API's settings, read from the environment in one place.
//   INTERNAL_API_TOKEN  the service credential (Authorization: Bearer …)
//   INTERNAL_PORT       default 8081
//   INTERNAL_HOST       default 127.0.0.1: an internal surface is not exposed unless asked

/** Development only: documented in docs/internal-api.md; refused when NODE_ENV=production. */
export const DEV_INTERNAL_API_TOKEN = 'dev-internal-token-not-for-production';
export const DEFAULT_INTERNAL_PORT = 8081;
const MIN_TOKEN_LENGTH = 16;

export interface InternalApiConfig {
  token: string;
}

export interface InternalServerConfig extends InternalApiConfig {
  port: number;
  hostname: string;
}

export function internalApiConfigFromEnv(env: NodeJS.ProcessEnv = process.env): InternalServerConfig {
  const given = env.INTERNAL_API_TOKEN?.trim();
  if (!given && env.NODE_ENV === 'production') {
    throw new Error('INTERNAL_API_TOKEN must be set in production (the development default is public)');
  }
  const token = given || DEV_INTERNAL_API_TOKEN;
  if (token.length < MIN_TOKEN_LENGTH) throw new Error(`INTERNAL_API_TOKEN must be at least ${MIN_TOKEN_LENGTH} characters`);
  const port = env.INTERNAL_PORT ? Number(env.INTERNAL_PORT) : DEFAULT_INTERNAL_PORT;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error(`INTERNAL_PORT must be a port number, not '${env.INTERNAL_PORT}'`);
  return { token, port, hostname: env.INTERNAL_HOST?.trim() || '127.0.0.1' };
}
