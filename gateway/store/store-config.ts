// Where the store lives, read from the environment in one place so the gateway server and
// the scripts (keys, token, start) always open the same store:
//   DATABASE_URL=postgres://…   a PostgreSQL server
//   GATEWAY_DATA_DIR=<dir>      PGlite persisted there ('memory' for in-memory)
//   neither                     PGlite persisted under var/pglite in the repository
import { resolve } from 'node:path';
import { packagePath } from '../../contracts/package-root';
import type { StoreOptions } from './store';

export const DEFAULT_DATA_DIR = packagePath('var', 'pglite');

export function storeOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): StoreOptions {
  const databaseUrl = env.DATABASE_URL?.trim();
  if (databaseUrl) return { databaseUrl };
  const dataDir = env.GATEWAY_DATA_DIR?.trim();
  if (dataDir === 'memory') return { dataDir: 'memory' };
  return { dataDir: dataDir ? resolve(dataDir) : DEFAULT_DATA_DIR };
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
