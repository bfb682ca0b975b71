import { Type } from '@sinclair/typebox';
import { EnvUrl, Optional, readEnvironment } from '../shared/environment';
import {
  DEFAULT_INTERNAL_PORT,
  DEV_INTERNAL_API_TOKEN,
  INTERNAL_API_ENVIRONMENT,
} from '../gateway/internal-api/internal-api-config';
import { STORE_ENVIRONMENT } from '../gateway/store/store-config';
import { MAIL_ENVIRONMENT } from '../gateway/mail/mailer-from-env';

// How `npm run keys` and `npm run outbox` reach a running server's internal API first (the
// embedded store admits one process), falling back to the store when nothing listens.

export const INTERNAL_API_CLIENT_ENVIRONMENT = Type.Object({
  INTERNAL_API_URL: Optional(
    EnvUrl({
      defaultText: 'http://127.0.0.1:$INTERNAL_PORT',
      description: 'where npm run keys / outbox find a running internal API',
    }),
  ),
});

/** Everything keys and outbox read: where the server is, its credential, and the store and mail for the fallback. */
export const OPERATOR_SCRIPT_ENVIRONMENT = Type.Object({
  ...INTERNAL_API_CLIENT_ENVIRONMENT.properties,
  ...INTERNAL_API_ENVIRONMENT.properties,
  ...STORE_ENVIRONMENT.properties,
  ...MAIL_ENVIRONMENT.properties,
});

export function internalApiClientFromEnv(env: NodeJS.ProcessEnv = process.env): { baseUrl: string; token: string } {
  const settings = readEnvironment(OPERATOR_SCRIPT_ENVIRONMENT, env);
  return {
    baseUrl: settings.INTERNAL_API_URL ?? `http://127.0.0.1:${settings.INTERNAL_PORT ?? DEFAULT_INTERNAL_PORT}`,
    token: settings.INTERNAL_API_TOKEN ?? DEV_INTERNAL_API_TOKEN,
  };
}

/** Nothing listens at the internal API's address: use the store instead. */
export const isConnectionRefused = (error: unknown): boolean => {
  const e = error as { code?: string; cause?: { code?: string } };
  return e?.code === 'ECONNREFUSED' || e?.cause?.code === 'ECONNREFUSED';
};
