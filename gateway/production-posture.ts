import type { Store } from './store/store';
import type { ServerSettings } from './server-settings';
import { developmentKeysInStore, revokeCommand, type StoredDevelopmentKey } from './auth/development-key-check';
import { sellerUrlRefusal } from './seller-client/seller-address-policy';

// What the gateway checks at start rather than trusts (docs/gateway/production.md, "Production checklist"),
// and the one line that says what is on. A production gateway whose store holds a development
// key does not start: anyone can sign as that key's client with the private half in seeds/dev-keys/.

/** A start the gateway refuses on purpose: `npm run gateway` exits 2 with the message. */
export class StartupRefusal extends Error {
  override name = 'StartupRefusal';
}

export interface PostureInput {
  store: Pick<Store, 'query'>;
  settings: Pick<ServerSettings, 'production' | 'sellerAddresses' | 'config'>;
  /** Whether this process seeds an empty store (seedingEnabled). */
  seeding: boolean;
}

function developmentKeyRefusal(keys: StoredDevelopmentKey[]): StartupRefusal {
  const named = keys.map((k) => `kid '${k.kid}' of client '${k.clientId}'`).join(', ');
  const commands = keys.map((k) => revokeCommand(k.kid)).join(' && ');
  return new StartupRefusal(
    `NODE_ENV=production and the store holds ${keys.length === 1 ? 'a development key' : 'development keys'} (seeds/dev-keys/, ` +
      `private half public): ${named}. Revoke ${keys.length === 1 ? 'it' : 'them'} first: ${commands}`,
  );
}

/** Members whose seller URL the address policy refuses without resolving it (http, an internal address literal). */
async function refusedSellers(input: PostureInput): Promise<string[]> {
  if (!input.settings.sellerAddresses.enforce) return [];
  const { rows } = await input.store.query<{ id: string; seller_url: string }>(
    'SELECT id, seller_url FROM members ORDER BY id',
  );
  return rows
    .filter((m) => sellerUrlRefusal(input.settings.sellerAddresses, m.seller_url) !== undefined)
    .map((m) => m.id);
}

const listed = (values: readonly string[]): string => (values.length === 0 ? 'none' : values.join(','));

/**
 * Checks the store against the environment and returns the posture line; throws StartupRefusal
 * when a production gateway must not start.
 */
export async function securityPosture(input: PostureInput): Promise<string> {
  const { production, sellerAddresses, config } = input.settings;
  const devKeys = await developmentKeysInStore(input.store);
  if (production && devKeys.length > 0) throw developmentKeyRefusal(devKeys);
  const refused = await refusedSellers(input);
  return [
    `security posture: environment ${production ? 'production' : 'development'}`,
    `seeding ${input.seeding ? (production ? 'on (without development keys)' : 'on') : 'off'}`,
    `development keys ${devKeys.length === 0 ? 'none' : `present (${devKeys.map((k) => k.kid).join(',')}; refused in production)`}`,
    `forwarded headers ${listed(config.forwardHeaders)}`,
    `seller addresses ${sellerAddresses.enforce ? 'https, public only' : 'unrestricted'}`,
    `allowed seller hosts ${listed(sellerAddresses.allowedHosts)}`,
    ...(refused.length > 0 ? [`sellers refused (http or an internal address) ${refused.join(',')}`] : []),
  ].join('; ');
}
