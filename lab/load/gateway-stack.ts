import {
  startThrowawayPostgres,
  throwawayPostgresUnavailable,
  type ThrowawayPostgres,
} from '../../gateway/testing/throwaway-postgres';
import { startGatewayProcess } from '../../gateway/testing/gateway-process';
import { killAllNodeChildren, startNodeChild, type NodeChild } from '../../gateway/testing/node-child';

// The mock seller and the gateway in processes of their own (as in production) over a
// throwaway PostgreSQL, on loopback, for the benches that load them from this process
// (npm run -w lab bench, npm run -w lab soak). Store: BENCH_STORE=postgres|pglite; by default a throwaway
// PostgreSQL when initdb and pg_ctl are on the PATH (the embedded PGlite keeps a whole
// Postgres in the gateway's own heap, ~400 MB of RSS before the first request), else PGlite.

export interface GatewayStack {
  seller: NodeChild;
  gateway: NodeChild;
  store: 'postgres' | 'pglite';
  /** The throwaway PostgreSQL's URL; undefined on PGlite. */
  databaseUrl?: string;
  /** Another gateway on the same store and seller, with `env` added (e.g. GATEWAY_WORKERS). */
  startGateway(env?: Record<string, string>): Promise<NodeChild>;
  /** Kills the children and removes the throwaway PostgreSQL; safe to call twice. */
  stop(): Promise<void>;
}

export interface GatewayStackOptions {
  /** The store; BENCH_STORE when left out, then a throwaway PostgreSQL when one can start here, else PGlite. */
  store?: 'postgres' | 'pglite';
  /** The gateway's environment, added to the stack's own (port 0, store, seller URL, no request log). */
  gatewayEnv?: Record<string, string>;
  gatewayNodeFlags?: string[];
  /** Progress lines (stderr for the soak, stdout for the bench). */
  log?: (line: string) => void;
}

export async function startGatewayStack(options: GatewayStackOptions = {}): Promise<GatewayStack> {
  const requested = options.store ?? process.env.BENCH_STORE;
  const store =
    requested === 'postgres' || requested === 'pglite'
      ? requested
      : (await throwawayPostgresUnavailable()) === undefined
        ? 'postgres'
        : 'pglite';
  let postgres: ThrowawayPostgres | undefined;
  let stopped: Promise<void> | undefined;
  const stop = () =>
    (stopped ??= (async () => {
      await killAllNodeChildren();
      await postgres?.destroy();
    })());
  try {
    if (store === 'postgres') postgres = await startThrowawayPostgres();
    options.log?.(
      `starting the mock seller and the gateway (store: ${postgres ? `throwaway PostgreSQL ${postgres.url}` : 'PGlite in memory'}) in their own processes…`,
    );
    const seller = await startNodeChild({
      name: 'mock seller',
      args: ['scripts/mock-seller.ts', '--port', '0'],
      ready: /listening on (http:\/\/[^\s]+)/,
    });
    const startGateway = (env: Record<string, string> = {}) =>
      startGatewayProcess({
        env: {
          GATEWAY_DATA_DIR: 'memory',
          GATEWAY_LOG: 'off',
          MOCK_SELLER_URL: `${seller.url}/seller`,
          DATABASE_URL: postgres?.url ?? '',
          ...options.gatewayEnv,
          ...env,
        },
        nodeFlags: options.gatewayNodeFlags,
      });
    const gateway = await startGateway();
    return { seller, gateway, store, databaseUrl: postgres?.url, startGateway, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
