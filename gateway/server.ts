import { compileAllValidators } from '../contracts/validator';
import { compileOnePassChecks } from './speedups/one-pass-check';
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
import { createConformanceCounter } from './conformance/conformance-counter';
import { flushJsonLines, jsonLineLogger } from './http/request-log';
import { GATEWAY_PROCESS_ENVIRONMENT, serverSettings } from './server-settings';
import { EnvironmentError, readEnvironment } from '../shared/environment';
import type { GatewayMetrics } from './metrics/gateway-metrics';
import { createDrain, type Drain } from '../shared/http/drain';
import { stopOnSignals } from '../shared/http/stop-signals';
import { onRetire, RETIRE_IDLE_GRACE_MS } from './cluster/rolling-reload';

// Wires the gateway from the environment and listens. `npm run gateway` runs this file;
// scripts/start.ts calls startGatewayServer() in-process.

export interface RunningGateway {
  url: string;
  port: number;
  /**
   * Stops accepting, lets in-flight requests finish (up to the grace period), then closes the
   * store. `idleGraceMs`: idle keep-alive connections stay open that long first (listen.ts).
   */
  close(options?: { idleGraceMs?: number }): Promise<void>;
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
  /**
   * The process's drain (shared/http/drain.ts): while it drains
   * /health answers 503 and answers close their connections.
   */
  drain?: Drain;
}

export async function startGatewayServer(
  env: NodeJS.ProcessEnv = process.env,
  overrides: GatewayServerOverrides = {},
): Promise<RunningGateway> {
  // Every variable of the process checked at once, before anything starts.
  readEnvironment(GATEWAY_PROCESS_ENVIRONMENT, env);
  const settings = serverSettings(env);
  const ownsStore = overrides.store === undefined;
  const store = overrides.store ?? (await openGatewayStore(env));
  const directory =
    overrides.directory ??
    createDirectory(store, settings.directoryTtlMs === undefined ? {} : { ttlMs: settings.directoryTtlMs });
  // Refuses a production start on a store with a development key (exit 2), else says what is on.
  const posture = await securityPosture({ store, settings, seeding: seedingEnabled(env) }).catch(
    async (error: unknown) => {
      if (ownsStore) await store.close();
      throw error;
    },
  );
  console.error(`gateway: ${posture}`);
  const direct = createSellerClient({
    maxReplyBytes: settings.config.protection.maxSellerReplyBytes,
    addressPolicy: settings.sellerAddresses,
  });
  const sellerClient = overrides.exchanges === undefined ? direct : recordingSellerClient(direct, overrides.exchanges);
  const conformance = createConformanceCounter({ store }); // flushed every 10 s and at close
  const app = createGateway({
    store,
    conformance,
    directory,
    sellerClient,
    config: settings.config,
    metrics: overrides.metrics,
    logger: settings.requestLog ? jsonLineLogger : false,
    // Behind a proxy the request's own origin is not what a browser can open.
    publicUrl: settings.publicUrl,
    draining: overrides.drain?.draining,
    speedups: settings.speedups,
  });

  // Validators compile when first used (the CLI's --help stays quick); a server compiles them before it serves.
  compileAllValidators();
  compileOnePassChecks();
  let listening: Listening;
  try {
    listening = await listen(app.fetch, {
      port: overrides.port ?? settings.port,
      host: settings.host,
      connections: connectionTimeouts(env),
      draining: overrides.drain?.draining,
    });
  } catch (error) {
    await sellerClient.close();
    if (ownsStore) await store.close();
    throw error;
  }
  console.error(`gateway: listening on ${listening.url}, store ${describeStore(storeOptionsFromEnv(env))}`);
  conformance.start();

  let closing: Promise<void> | undefined;
  return {
    url: listening.url,
    port: listening.port,
    close(options = {}) {
      closing ??= (async () => {
        // Idle keep-alive sockets go now (or after idleGraceMs),
        // busy ones after their response (up to the grace period).
        await listening.drain(settings.shutdownGraceMs, options.idleGraceMs);
        // Every request is answered: its log line goes out now, not a turn later.
        flushJsonLines();
        await conformance.stop().catch(lostCounts); // the last counts reach the store before it closes
        await sellerClient.close();
        if (ownsStore) await store.close();
      })();
      return closing;
    },
  };
}

const lostCounts = (error: unknown) =>
  console.error(`gateway: conformance counts of the last seconds lost at stop: ${(error as Error).message}`);

async function main(): Promise<void> {
  readEnvironment(GATEWAY_PROCESS_ENVIRONMENT);
  const settings = serverSettings();
  // Without a handler SIGHUP would end the process; only a cluster's primary reloads (its own handler).
  const ignoreSighup = () =>
    console.error(
      cluster.isWorker
        ? `gateway worker ${process.pid}: SIGHUP ignored (the primary reloads the workers)`
        : 'gateway: SIGHUP ignored: a reload replaces workers one at a time only with GATEWAY_WORKERS above 1; restart this process (SIGTERM drains it) to deploy',
    );
  if (cluster.isWorker || settings.workers <= 1) process.on('SIGHUP', ignoreSighup);
  if (cluster.isPrimary && settings.workers > 1) {
    const refusal = clusterRefusal(settings.workers, process.env);
    if (refusal !== undefined) {
      console.error(`gateway: ${refusal}`);
      process.exit(2);
    }
    runGatewayCluster({ workers: settings.workers, stopGraceMs: settings.shutdownGraceMs, drainMs: settings.drainMs });
    return;
  }
  const drain = createDrain({ drainMs: settings.drainMs });
  const running = await startGatewayServer(process.env, { drain });
  stopOnSignals({
    name: cluster.isWorker ? `gateway worker ${process.pid}` : 'gateway',
    drain,
    drainMs: settings.drainMs,
    stop: () => running.close(),
  });
  if (cluster.isWorker) {
    // A reload retires this worker (the primary has a healthy replacement): no drain, since the
    // machine stays in the balancer's rotation; stop accepting and finish what is in flight.
    onRetire(() => running.close({ idleGraceMs: RETIRE_IDLE_GRACE_MS }));
  }
}

/**
 * `npm run gateway`: the gateway process (or its cluster), until SIGINT or SIGTERM; exits
 * 2 on a bad setting or a refused start (production-posture.ts), 1 on a failed start.
 */
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
