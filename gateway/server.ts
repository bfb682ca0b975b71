import { compileAllValidators } from '../contracts/validator';
import cluster from 'node:cluster';
import { pathToFileURL } from 'node:url';
import { clusterRefusal, runGatewayCluster } from './cluster/gateway-cluster';
import { listen, type Listening } from '../shared/http/listen';
import { connectionTimeouts } from '../shared/http/connection-environment';
import { openGatewayStore, seedingEnabled } from './open-gateway-store';
import { securityPosture, StartupRefusal } from './production-posture';
import { describeStore, storeOptionsFromEnv } from './store/store-config';
import { createDirectory } from './directory/create-directory';
import type { Directory } from './directory/directory';
import type { Store } from './store/store';
import { createSellerClient } from './seller-client/seller-client';
import { recordingSellerClient } from './seller-client/recording-seller-client';
import type { ExchangeLog } from '../inspector/exchange-log';
import { createGateway } from './app';
import { jsonLineLogger } from './http/request-log';
import { GATEWAY_PROCESS_ENVIRONMENT, serverSettings } from './server-settings';
import { EnvironmentError, readEnvironment } from '../shared/environment';
import type { GatewayMetrics } from './metrics/gateway-metrics';

// Wires the gateway from the environment and listens. `npm run gateway` runs this file;
// scripts/start.ts calls startGatewayServer() in-process.

export interface RunningGateway {
  url: string;
  port: number;
  /** Stops accepting, lets in-flight requests finish (up to the grace period), then closes the store. */
  close(): Promise<void>;
}

export interface GatewayServerOverrides {
  port?: number;
  /** A store opened by the caller (npm start shares one with the internal API); the caller closes it. */
  store?: Store;
  directory?: Directory;
  /** Every forwarded call is also added here, for the inspector on the internal port (npm start). */
  exchanges?: ExchangeLog;
  /** Metrics shared with the internal API that serves them (npm start). */
  metrics?: GatewayMetrics;
}

export async function startGatewayServer(env: NodeJS.ProcessEnv = process.env, overrides: GatewayServerOverrides = {}): Promise<RunningGateway> {
  // Every variable of the process checked at once, before anything starts.
  readEnvironment(GATEWAY_PROCESS_ENVIRONMENT, env);
  const settings = serverSettings(env);
  const ownsStore = overrides.store === undefined;
  const store = overrides.store ?? (await openGatewayStore(env));
  const directory = overrides.directory ?? createDirectory(store, settings.directoryTtlMs === undefined ? {} : { ttlMs: settings.directoryTtlMs });
  // Refuses a production start on a store with a development key (exit 2), else says what is on.
  const posture = await securityPosture({ store, settings, seeding: seedingEnabled(env) }).catch(async (error: unknown) => {
    if (ownsStore) await store.close();
    throw error;
  });
  console.error(`gateway: ${posture}`);
  const direct = createSellerClient({ maxReplyBytes: settings.config.protection.maxSellerReplyBytes, addressPolicy: settings.sellerAddresses });
  const sellerClient = overrides.exchanges === undefined ? direct : recordingSellerClient(direct, overrides.exchanges);
  const app = createGateway({
    store,
    directory,
    sellerClient,
    config: settings.config,
    metrics: overrides.metrics,
    logger: settings.requestLog ? jsonLineLogger : false,
    // Behind a proxy the request's own origin is not what a browser can open.
    publicUrl: settings.publicUrl,
  });

  // Validators compile when first used (the CLI's --help stays quick); a server compiles them before it serves.
  compileAllValidators();
  let listening: Listening;
  try {
    listening = await listen(app.fetch, { port: overrides.port ?? settings.port, host: settings.host, connections: connectionTimeouts(env) });
  } catch (error) {
    await sellerClient.close();
    if (ownsStore) await store.close();
    throw error;
  }
  console.error(`gateway: listening on ${listening.url}, store ${describeStore(storeOptionsFromEnv(env))}`);

  let closing: Promise<void> | undefined;
  return {
    url: listening.url,
    port: listening.port,
    close() {
      closing ??= (async () => {
        // Idle keep-alive sockets go now, busy ones after their response (up to the grace period).
        await listening.drain(settings.shutdownGraceMs);
        await sellerClient.close();
        if (ownsStore) await store.close();
      })();
      return closing;
    },
  };
}

async function main(): Promise<void> {
  readEnvironment(GATEWAY_PROCESS_ENVIRONMENT);
  const settings = serverSettings();
  if (cluster.isPrimary && settings.workers > 1) {
    const refusal = clusterRefusal(settings.workers, process.env);
    if (refusal !== undefined) {
      console.error(`gateway: ${refusal}`);
      process.exit(2);
    }
    runGatewayCluster({ workers: settings.workers, stopGraceMs: settings.shutdownGraceMs });
    return;
  }
  const running = await startGatewayServer();
  const stop = (signal: string) => {
    console.error(`gateway: ${signal}, finishing in-flight requests`);
    running.close().then(
      () => process.exit(0),
      (error) => {
        console.error(`gateway: shutdown failed: ${(error as Error).message}`);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}

/** `npm run gateway`: the gateway process (or its cluster), until SIGINT or SIGTERM; exits 2 on a bad setting or a refused start (production-posture.ts), 1 on a failed start. */
export async function runGatewayProcess(): Promise<void> {
  try {
    await main();
  } catch (error) {
    console.error(`gateway: ${(error as Error).message}`);
    // A variable set to something unusable is a usage error.
    process.exit(error instanceof EnvironmentError || error instanceof StartupRefusal ? 2 : 1);
  }
}

// Run as a script from source (`node --import tsx gateway/server.ts`, as tests do); the bundled
// build calls runGatewayProcess itself (scripts/run-bundled.mjs).
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await runGatewayProcess();
