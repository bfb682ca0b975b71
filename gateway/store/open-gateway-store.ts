// What `npm start`, the gateway server and the scripts call: the store the environment
// names (store-config.ts), migrated, and — on a fresh install — loaded with the seeded
// directory and the catalog, so every entry point sees the same install whichever runs first.
// GATEWAY_SEED=false skips the seeds (a real deployment does not want the dev keys).
import type { Store } from './store';
import { createStore } from './create-store';
import { storeOptionsFromEnv } from './store-config';
import { DEFAULT_SELLER_URL, seedDirectory } from '../directory/directory-seed';
import { seedCatalog } from '../catalog/catalog-seed';

export function seedingEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return !/^(false|0|no|off)$/i.test(env.GATEWAY_SEED?.trim() ?? '');
}

export async function openGatewayStore(env: NodeJS.ProcessEnv = process.env): Promise<Store> {
  const store = await createStore(storeOptionsFromEnv(env));
  if (seedingEnabled(env)) {
    try {
      // The env given, not process.env: a caller's MOCK_SELLER_URL must reach the seeds.
      await seedDirectory(store, { sellerUrl: env.MOCK_SELLER_URL?.trim() || DEFAULT_SELLER_URL });
      // Upserts by id: a restart refreshes the seed catalog and leaves carts alone.
      await seedCatalog(store);
    } catch (error) {
      await store.close();
      throw error;
    }
  }
  return store;
}
