// What `npm start`, the gateway server and the scripts call: the store the environment
// names (store-config.ts), migrated, and — on a fresh install — loaded with the seeded
// directory and the catalog, so every entry point sees the same install whichever runs first.
// GATEWAY_SEED=false skips the seeds (a real deployment does not want the dev keys); in
// production they are off unless asked for, and then seed no development key and only seller
// URLs the production address policy admits.
import type { Store } from './store/store';
import { createStore } from './store/create-store';
import { EnvironmentError, readEnvironment } from '../shared/environment';
import { STORE_ENVIRONMENT, storeOptionsFromEnv } from './store/store-config';
import { DirectoryWriteRefused, seedDirectory, type SeedOptions } from './directory/directory-seed';
import { seedCatalog } from './catalog/catalog-seed';
import { isProduction } from './production-mode';
import { allowedSellerHosts } from './server-settings';
import {
  productionSellerAddresses,
  resolvedSellerUrlRefusal,
  systemResolver,
} from './seller-client/seller-address-policy';

/**
 * Why a seller URL may not be written to the directory (the seeds, an operator's member): in
 * production the address policy judges it and the addresses its name resolves to now; in
 * development every URL goes.
 */
export function sellerUrlRefusalOf(
  env: NodeJS.ProcessEnv = process.env,
): ((sellerUrl: string) => Promise<string | undefined>) | undefined {
  if (!isProduction(env)) return undefined;
  const policy = productionSellerAddresses(allowedSellerHosts(env));
  return (url) => resolvedSellerUrlRefusal(policy, url, systemResolver);
}

/**
 * What production changes about the seeds: no development keys, and the seller URL judged as any directory write is.
 */
function productionSeeding(env: NodeJS.ProcessEnv): Pick<SeedOptions, 'developmentKeys' | 'sellerUrlRefusal'> {
  if (!isProduction(env)) return {};
  return { developmentKeys: false, sellerUrlRefusal: sellerUrlRefusalOf(env) };
}

/**
 * GATEWAY_SEED, or when unset: on in development, off in production
 * (a forgotten variable must not load the demo directory).
 */
export const seedingEnabled = (env: NodeJS.ProcessEnv = process.env): boolean =>
  readEnvironment(STORE_ENVIRONMENT, env).GATEWAY_SEED ?? !isProduction(env);

export async function openGatewayStore(env: NodeJS.ProcessEnv = process.env): Promise<Store> {
  const store = await createStore(storeOptionsFromEnv(env));
  const { MOCK_SELLER_URL } = readEnvironment(STORE_ENVIRONMENT, env);
  if (seedingEnabled(env)) {
    try {
      // The env given, not process.env: a caller's MOCK_SELLER_URL must reach the seeds.
      await seedDirectory(store, { sellerUrl: MOCK_SELLER_URL, ...productionSeeding(env) }).catch((error: unknown) => {
        // The seller URL of the seeds is MOCK_SELLER_URL: a refused one is a setting to change (exit 2).
        throw error instanceof DirectoryWriteRefused
          ? new EnvironmentError([{ name: 'MOCK_SELLER_URL', message: `MOCK_SELLER_URL: ${error.message}` }])
          : error;
      });
      // Upserts by id: a restart refreshes the seed catalog and leaves carts alone.
      await seedCatalog(store);
    } catch (error) {
      await store.close();
      throw error;
    }
  }
  return store;
}
