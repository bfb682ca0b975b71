// createStore: the one way the gateway, scripts and tests open the store. PostgreSQL when
// a databaseUrl is given, PGlite otherwise; migrations applied before it is returned. A new
// PGlite store (a data directory not made yet, or in memory) starts from the store image
// (store-image.ts), never from an initdb in this process.
import type { Store, StoreOptions } from './store';
import { openPgliteStore } from './pglite-store';
import { openPostgresStore } from './postgres-store';
import { runMigrations } from './migrations';
import { prepareDataDir } from './data-dir-restore';
import { loadStoreImage } from './store-image';

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
  const inMemory = options.dataDir === undefined || options.dataDir === 'memory';
  const store = await openPgliteStore(
    inMemory
      ? { loadDataDir: new Blob([await loadStoreImage()]) }
      : { dataDir: options.dataDir, prepareDataDir: (dir) => prepareDataDir(dir, { image: () => loadStoreImage() }) },
  );
  try {
    await runMigrations(store.session);
  } catch (error) {
    await store.close();
    throw error;
  }
  return store;
}
