import cluster, { type Worker } from 'node:cluster';
import { storeOptionsFromEnv } from '../store/store-config';
import { withGatewayHeapFlags } from '../node-flags';
import { replaceOneAtATime, RETIRE_MESSAGE } from './rolling-reload';

/** How long a new worker of a reload has to listen (it opens the store and compiles validators). */
const WORKER_START_TIMEOUT_MS = 60_000;

// GATEWAY_WORKERS=N: N gateway processes on one port (node:cluster; the primary accepts and
// hands connections round-robin to the workers). Everything a gateway shares lives in
// PostgreSQL (orders, directory changes by NOTIFY), which is why the embedded store, owned by
// one process, is refused. A worker that dies is replaced; SIGTERM to the primary drains every
// worker (shared/http/drain.ts) and stops it, SIGINT or a second signal skips the drain; SIGHUP
// replaces the workers one at a time (rolling-reload.ts).

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
  /** How long each worker drains on SIGTERM (GATEWAY_DRAIN_MS) before it stops accepting. */
  drainMs: number;
  log?: (line: string) => void;
}

/**
 * Runs in the primary: forks the workers, replaces those that
 * die, stops them all on SIGINT/SIGTERM, reloads them on SIGHUP.
 */
export function runGatewayCluster(options: ClusterOptions): void {
  const primary: Primary = {
    options,
    log: options.log ?? ((line: string) => console.error(line)),
    stopping: false,
    reloading: false,
    retiring: new Set(),
    recentDeaths: [],
  };
  // Each worker gets the gateway's heap limits even when the primary was started without them.
  cluster.setupPrimary({ execArgv: withGatewayHeapFlags(process.execArgv) });
  for (let i = 0; i < options.workers; i++) cluster.fork();
  primary.log(`gateway: primary ${process.pid} started ${options.workers} workers`);

  cluster.on('exit', (worker: Worker, code: number | null, signal: string | null) =>
    replaceDeadWorker(primary, worker, code, signal),
  );
  process.on('SIGINT', () => onStopSignal(primary, 'SIGINT'));
  process.on('SIGTERM', () => onStopSignal(primary, 'SIGTERM'));
  process.on('SIGHUP', () => reload(primary));
}

/** The primary's state: what it is doing, and the deaths it has seen. */
interface Primary {
  options: ClusterOptions;
  log: (line: string) => void;
  stopping: boolean;
  reloading: boolean;
  /** Workers a reload retires on purpose: their exit is not a death to replace. */
  retiring: Set<number>;
  /**
   * When workers died in the last minute: one that dies at once
   * (bad configuration) must not be restarted in a tight loop.
   */
  recentDeaths: number[];
}

const liveWorkers = () =>
  Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined && !w.isDead());

const exited = (worker: Worker) =>
  new Promise<void>((resolve) => (worker.isDead() ? resolve() : worker.once('exit', () => resolve())));

/** A worker that exited unasked is replaced, unless workers keep dying: then the cluster stops. */
function replaceDeadWorker(primary: Primary, worker: Worker, code: number | null, signal: string | null): void {
  const { options, log, recentDeaths } = primary;
  if (primary.stopping || primary.retiring.delete(worker.id)) return;
  const now = Date.now();
  recentDeaths.push(now);
  while (recentDeaths.length > 0 && recentDeaths[0] < now - 60_000) recentDeaths.shift();
  if (recentDeaths.length > options.workers * 3) {
    log(
      `gateway: workers keep dying (${recentDeaths.length} in a minute; last: worker ${worker.process.pid}, ${signal ?? `code ${code}`}); stopping`,
    );
    void stop(primary, 'repeated worker deaths', 1, 'SIGTERM');
    return;
  }
  log(`gateway: worker ${worker.process.pid} exited (${signal ?? `code ${code}`}); starting another`);
  setTimeout(() => cluster.fork(), 200).unref();
}

/**
 * Workers are sent `signal` (SIGTERM drains, SIGINT does not) and
 * killed if still there after the drain and the grace period.
 */
async function stop(primary: Primary, reason: string, exitCode: number, signal: 'SIGTERM' | 'SIGINT'): Promise<void> {
  if (primary.stopping) return;
  primary.stopping = true;
  const { options, log } = primary;
  const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
  log(
    `gateway: ${reason}, stopping ${workers.length} workers (${signal === 'SIGTERM' ? 'each drains, then finishes' : 'each finishes'} its requests in flight)`,
  );
  const gone = workers.map(exited);
  for (const worker of workers) worker.process.kill(signal);
  const killer = setTimeout(
    () => {
      for (const worker of workers) if (!worker.isDead()) worker.process.kill('SIGKILL');
    },
    (signal === 'SIGTERM' ? options.drainMs : 0) + options.stopGraceMs + 2_000,
  );
  await Promise.all(gone);
  clearTimeout(killer);
  process.exit(exitCode);
}

function onStopSignal(primary: Primary, signal: 'SIGTERM' | 'SIGINT'): void {
  if (!primary.stopping) return void stop(primary, signal, 0, signal);
  // A second signal: the workers skip the rest of their drain (shared/http/stop-signals.ts).
  primary.log(`gateway: ${signal} again, workers skip the rest of their drain`);
  for (const worker of liveWorkers()) worker.process.kill('SIGINT');
}

/** SIGHUP: every worker replaced by a new one, one at a time (rolling-reload.ts). */
function reload(primary: Primary): void {
  const { log } = primary;
  if (primary.stopping || primary.reloading)
    return log(`gateway: SIGHUP ignored: ${primary.stopping ? 'stopping' : 'a reload is under way'}`);
  primary.reloading = true;
  const old = liveWorkers();
  log(`gateway: SIGHUP, replacing ${old.length} workers one at a time`);
  void replaceOneAtATime(old, {
    start: () => startWorker(primary),
    retire: (worker) => retireWorker(primary, worker),
    log,
  }).finally(() => (primary.reloading = false));
}

/** A new worker of a reload, once it listens. */
function startWorker(primary: Primary): Promise<Worker> {
  return new Promise<Worker>((resolve, reject) => {
    const worker = cluster.fork();
    const timer = setTimeout(
      () => reject(new Error(`not listening within ${WORKER_START_TIMEOUT_MS} ms`)),
      WORKER_START_TIMEOUT_MS,
    );
    worker.once('listening', () => {
      clearTimeout(timer);
      primary.log(`gateway: reload: worker ${worker.process.pid} listening`);
      resolve(worker);
    });
    worker.once('exit', (code: number | null, signal: string | null) => {
      clearTimeout(timer);
      reject(new Error(`worker ${worker.process.pid} exited (${signal ?? `code ${code}`}) before listening`));
    });
  });
}

/** An old worker of a reload: told to finish what it has in flight, killed after the grace period. */
async function retireWorker(primary: Primary, worker: Worker): Promise<void> {
  if (worker.isDead()) return;
  primary.retiring.add(worker.id);
  primary.log(`gateway: reload: retiring worker ${worker.process.pid}`);
  const killer = setTimeout(() => worker.process.kill('SIGKILL'), primary.options.stopGraceMs + 2_000);
  const gone = exited(worker);
  worker.send(RETIRE_MESSAGE);
  await gone;
  clearTimeout(killer);
}
