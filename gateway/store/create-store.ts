// createStore: the one way the gateway, scripts and tests open the store. PostgreSQL when
// a databaseUrl is given, PGlite otherwise; migrations applied before it is returned.
import type { Store, StoreOptions } from './store';
import { openPgliteStore } from './pglite-store';
import { openPostgresStore } from './postgres-store';
import { runMigrations } from './migrations';

export async function createStore(options: StoreOptions = {}): Promise<Store> {
  if (options.databaseUrl) {
    const store = await openPostgresStore({ databaseUrl: options.databaseUrl });
    try {
      await store.withSession((session) => runMigrations(session));
    } catch (error) {
      await store.close();
      throw error;
    }
    return store;
  }
  const store = await openPgliteStore({ dataDir: options.dataDir });
  try {
    await runMigrations(store.session);
  } catch (error) {
    await store.close();
    throw error;
  }
  return store;
}
