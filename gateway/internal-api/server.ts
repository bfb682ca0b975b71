import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { listen } from '../../shared/http/listen';
import { connectionTimeouts } from '../../shared/http/connection-environment';
import type { Store } from '../store/store';
import type { Directory } from '../directory/directory';
import { systemClock, type Clock } from '../clock';
import { addressValidatorFromEnv } from '../address/address-validator-from-env';
import { mailerFromEnv, mailFromEnv } from '../mail/mailer-from-env';
import { createOutboxDispatcher, type OutboxDispatcher } from '../mail/outbox-dispatcher';
import { createInternalApi } from './internal-api';
import { DEV_INTERNAL_API_TOKEN, INTERNAL_API_ENVIRONMENT, internalApiConfigFromEnv } from './internal-api-config';
import { readEnvironment } from '../../shared/environment';
import { ADDRESS_VALIDATOR_ENVIRONMENT } from '../address/address-validator-from-env';
import { MAIL_ENVIRONMENT } from '../mail/mailer-from-env';
import { Type } from '@sinclair/typebox';
import { userMailComposers } from './welcome-email';
import type { ExchangeFeed } from '../../inspector/exchange';
import type { GatewayMetrics } from '../metrics/gateway-metrics';
import { sellerUrlRefusalOf } from '../open-gateway-store';

// Wires the internal API from the environment and listens; starts the outbox dispatcher
// beside it. `npm start` calls startInternalApi with the gateway's store and directory;
// `tsx gateway/internal-api/server.ts` runs it alone on its own store.

/** How long close() lets a request in flight (a user being created) finish. */
const CLOSE_GRACE_MS = 5_000;

/** The internal API's whole environment (beside the store's): its own, the address provider's, the mail's. */
export const INTERNAL_API_SERVER_ENVIRONMENT = Type.Object({
  ...INTERNAL_API_ENVIRONMENT.properties,
  ...ADDRESS_VALIDATOR_ENVIRONMENT.properties,
  ...MAIL_ENVIRONMENT.properties,
});

export interface StartInternalApiOptions {
  store: Store;
  /** The buyer gateway's directory in the same process, invalidated on each creation. */
  directory?: Pick<Directory, 'invalidate'>;
  /** Default process.env: INTERNAL_*, ADDRESS_VALIDATOR*, MAIL_*, SMTP_*. */
  env?: NodeJS.ProcessEnv;
  /** Overrides INTERNAL_PORT; 0 picks a free port. */
  port?: number;
  hostname?: string;
  clock?: Clock;
  log?: (line: string) => void;
  /** The gateway's metrics in this process, served at GET /metrics. */
  metrics?: GatewayMetrics;
  /** How often the dispatcher looks for due messages besides being woken. */
  outboxPollMs?: number;
  /** The gateway's forwarded exchanges in this process: adds the inspector page at /inspector. */
  exchanges?: ExchangeFeed;
  /** A certification worker in this process, woken when a certification is asked for. */
  certificationWorker?: { wake(): void };
}

export interface RunningInternalApi {
  url: string;
  port: number;
  dispatcher: OutboxDispatcher;
  close(): Promise<void>;
}

export async function startInternalApi(options: StartInternalApiOptions): Promise<RunningInternalApi> {
  const env = options.env ?? process.env;
  const log = options.log ?? ((line: string) => console.error(line));
  const clock = options.clock ?? systemClock;
  // Every variable of the internal API checked at once, before anything starts.
  readEnvironment(INTERNAL_API_SERVER_ENVIRONMENT, env);
  const config = internalApiConfigFromEnv(env);
  const addressValidator = addressValidatorFromEnv(env);
  const mailer = mailerFromEnv(env);
  const dispatcher = createOutboxDispatcher({
    store: options.store,
    mailer,
    clock,
    from: mailFromEnv(env),
    composers: userMailComposers,
    log,
  });
  // Ends the inspector's event streams on close, which server.close() would otherwise wait for.
  const closing = new AbortController();
  const inspector = options.exchanges === undefined ? undefined : { feed: options.exchanges, signal: closing.signal };
  const app = createInternalApi({
    store: options.store,
    addressValidator,
    config,
    directory: options.directory,
    dispatcher,
    clock,
    log,
    inspector,
    metrics: options.metrics,
    sellerUrlRefusal: sellerUrlRefusalOf(env),
    certificationWorker: options.certificationWorker,
  });

  const hostname = options.hostname ?? config.hostname;
  const { url, port, drain } = await listen(app.fetch, {
    port: options.port ?? config.port,
    host: hostname,
    connections: connectionTimeouts(env),
  });
  dispatcher.start(options.outboxPollMs ?? 5_000);
  const credential =
    config.token === DEV_INTERNAL_API_TOKEN ? 'the development token (see docs/internal-api.md)' : 'INTERNAL_API_TOKEN';
  log(
    `internal API on ${url}/internal/users/create (credential: ${credential}; address validator: ${addressValidator.name}; mail: ${mailer.description})`,
  );

  return {
    url,
    port,
    dispatcher,
    async close() {
      await dispatcher.stop();
      closing.abort();
      await drain(CLOSE_GRACE_MS);
      mailer.close();
    },
  };
}

async function main(): Promise<void> {
  const { openGatewayStore } = await import('../open-gateway-store');
  const { describeStore, storeOptionsFromEnv } = await import('../store/store-config');
  const store = await openGatewayStore();
  console.error(`store: ${describeStore(storeOptionsFromEnv())}`);
  const running = await startInternalApi({ store });
  const shutdown = async () => {
    await running.close();
    await store.close();
    process.exit(0);
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
