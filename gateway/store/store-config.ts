// Where the store lives, read from the environment in one place so the gateway server and
// the scripts (keys, token, start) always open the same store: DATABASE_URL (PostgreSQL)
// first, else PGlite in GATEWAY_DATA_DIR ('memory' for in-memory), else under var/pglite.
import { resolve } from 'node:path';
import { Type } from '@sinclair/typebox';
import { packagePath } from '../../shared/package-root';
import { EnvFlag, EnvString, EnvUrl, Optional, readEnvironment } from '../../shared/environment';
import type { StoreOptions } from './store';

export const DEFAULT_DATA_DIR = packagePath('var', 'pglite');
export const DEFAULT_SELLER_URL = 'http://127.0.0.1:9090/seller';

export const STORE_ENVIRONMENT = Type.Object({
  DATABASE_URL: Optional(
    EnvUrl({
      schemes: ['postgres:', 'postgresql:'],
      description: 'PostgreSQL server (postgres://user:pass@host:5432/db); when unset, the embedded PGlite store',
    }),
  ),
  GATEWAY_DATA_DIR: Optional(
    EnvString({
      defaultText: 'var/pglite',
      description: "the embedded store's directory ('memory': in memory, gone on exit)",
    }),
  ),
  GATEWAY_SEED: Optional(
    EnvFlag({
      defaultText: 'on; off when NODE_ENV=production',
      description:
        'load the seeded directory and catalog into an empty store; with NODE_ENV=production only when set to on, and even then without the development keys',
    }),
  ),
  MOCK_SELLER_URL: EnvUrl({
    default: DEFAULT_SELLER_URL,
    description:
      "seller URL of the seeded members (seed time only); npm start passes its own mock seller's, where it listens, and points the demo's members at it on every start",
  }),
});

export function storeOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): StoreOptions {
  const { DATABASE_URL, GATEWAY_DATA_DIR } = readEnvironment(STORE_ENVIRONMENT, env);
  if (DATABASE_URL !== undefined) return { databaseUrl: DATABASE_URL };
  if (GATEWAY_DATA_DIR === 'memory') return { dataDir: 'memory' };
  return { dataDir: GATEWAY_DATA_DIR !== undefined ? resolve(GATEWAY_DATA_DIR) : DEFAULT_DATA_DIR };
}

/** For log lines: where the store is, without the password. */
export function describeStore(options: StoreOptions): string {
  if (options.databaseUrl) {
    try {
      const url = new URL(options.databaseUrl);
      if (url.password) url.password = '***';
      return `postgres ${url.toString()}`;
    } catch {
      return 'postgres (DATABASE_URL)';
    }
  }
  return options.dataDir && options.dataDir !== 'memory' ? `pglite ${options.dataDir}` : 'pglite in memory';
}
