// What `npm start`, the gateway server and the scripts call: the store the environment
// names (store-config.ts), migrated, and — on a fresh install — loaded with the seeded
// directory and the catalog, so every entry point sees the same install whichever runs first.
// GATEWAY_SEED=false skips the seeds (a real deployment does not want the dev keys).
import type { Store } from './store/store';
import { createStore } from './store/create-store';
import { readEnvironment } from '../shared/environment';
import { STORE_ENVIRONMENT, storeOptionsFromEnv } from './store/store-config';
import { seedDirectory } from './directory/directory-seed';
import { seedCatalog } from './catalog/catalog-seed';

export const seedingEnabled = (env: NodeJS.ProcessEnv = process.env): boolean => readEnvironment(STORE_ENVIRONMENT, env).GATEWAY_SEED;

export async function openGatewayStore(env: NodeJS.ProcessEnv = process.env): Promise<Store> {
  const store = await createStore(storeOptionsFromEnv(env));
  const { GATEWAY_SEED, MOCK_SELLER_URL } = readEnvironment(STORE_ENVIRONMENT, env);
  if (GATEWAY_SEED) {
    try {
      // The env given, not process.env: a caller's MOCK_SELLER_URL must reach the seeds.
      await seedDirectory(store, { sellerUrl: MOCK_SELLER_URL });
      // Upserts by id: a restart refreshes the seed catalog and leaves carts alone.
      await seedCatalog(store);
    } catch (error) {
      await store.close();
      throw error;
    }
  }
  return store;
}
