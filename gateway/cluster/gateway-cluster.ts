import cluster, { type Worker } from 'node:cluster';
import { storeOptionsFromEnv } from '../store/store-config';
import { withGatewayHeapFlags } from '../node-flags';

// GATEWAY_WORKERS=N: N gateway processes on one port (node:cluster; the primary accepts and
// hands connections round-robin to the workers). Everything a gateway shares lives in
// PostgreSQL (orders, directory changes by NOTIFY), which is why the embedded store, owned by
// one process, is refused. A worker that dies is replaced; SIGINT/SIGTERM to the primary stop
// every worker gracefully (each finishes its requests in flight) before it exits.

/** Why N workers cannot run on this environment's store, or undefined when they can. */
export function clusterRefusal(workers: number, env: NodeJS.ProcessEnv): string | undefined {
  if (workers <= 1 || storeOptionsFromEnv(env).databaseUrl !== undefined) return undefined;
  return (
    `GATEWAY_WORKERS=${workers} needs DATABASE_URL: the embedded PGlite store can be opened by one process only, ` +
    'and the workers must share orders and the directory. Set DATABASE_URL to a PostgreSQL server, or run one worker (GATEWAY_WORKERS=1).'
  );
}

export interface ClusterOptions {
  workers: number;
  /** How long stopping waits for the workers' own graceful shutdown before killing them. */
  stopGraceMs: number;
  log?: (line: string) => void;
}

/** Runs in the primary: forks the workers, replaces those that die, stops them all on SIGINT/SIGTERM. */
export function runGatewayCluster(options: ClusterOptions): void {
  const log = options.log ?? ((line: string) => console.error(line));
  let stopping = false;
  // A worker that dies at once (bad configuration) must not be restarted in a tight loop.
  const recentDeaths: number[] = [];

  // Each worker gets the gateway's heap limits even when the primary was started without them.
  cluster.setupPrimary({ execArgv: withGatewayHeapFlags(process.execArgv) });
  const fork = () => cluster.fork();
  for (let i = 0; i < options.workers; i++) fork();
  log(`gateway: primary ${process.pid} started ${options.workers} workers`);

  cluster.on('exit', (worker: Worker, code: number | null, signal: string | null) => {
    if (stopping) return;
    const now = Date.now();
    recentDeaths.push(now);
    while (recentDeaths.length > 0 && recentDeaths[0] < now - 60_000) recentDeaths.shift();
    if (recentDeaths.length > options.workers * 3) {
      log(`gateway: workers keep dying (${recentDeaths.length} in a minute; last: worker ${worker.process.pid}, ${signal ?? `code ${code}`}); stopping`);
      void stop('repeated worker deaths', 1);
      return;
    }
    log(`gateway: worker ${worker.process.pid} exited (${signal ?? `code ${code}`}); starting another`);
    setTimeout(fork, 200).unref();
  });

  async function stop(reason: string, exitCode: number): Promise<void> {
    if (stopping) return;
    stopping = true;
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
    log(`gateway: ${reason}, stopping ${workers.length} workers (each finishes its requests in flight)`);
    const gone = workers.map((worker) => new Promise<void>((resolve) => (worker.isDead() ? resolve() : worker.once('exit', () => resolve()))));
    for (const worker of workers) worker.process.kill('SIGTERM');
    const killer = setTimeout(() => {
      for (const worker of workers) if (!worker.isDead()) worker.process.kill('SIGKILL');
    }, options.stopGraceMs + 2_000);
    await Promise.all(gone);
    clearTimeout(killer);
    process.exit(exitCode);
  }

  process.once('SIGINT', () => void stop('SIGINT', 0));
  process.once('SIGTERM', () => void stop('SIGTERM', 0));
}
