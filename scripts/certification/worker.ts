import { hostname } from 'node:os';
import type { Store } from '../../gateway/store/store';
import type { Clock } from '../../gateway/clock';
import { createCertificationQueue } from '../../gateway/certification/certification-queue';
import { createCertificationWorker, type CertificationWorker } from '../../gateway/certification/certification-worker';
import type { CertificationRunner } from '../../gateway/certification/certification-types';
import { childProcessRunner } from './child-runner';

// A certification worker on a store: the queue's loop (gateway/certification/) with the kit's
// runner, each certification in a child process by default. npm start runs one beside its
// gateway (the embedded store admits one process, so the loop shares it and the runs are
// children); `npm run certification -- worker` runs one alone; several against one PostgreSQL
// share the queue (each claim skips the rows another holds).

export interface WorkerProcessOptions {
  store: Store;
  concurrency?: number;
  /** Default: each certification in a child process (child-runner.ts). */
  run?: CertificationRunner;
  clock?: Clock;
  leaseMs?: number;
  pollMs?: number;
  log?: (line: string) => void;
}

export const workerIdOf = (name = 'worker'): string => `${hostname()}:${process.pid}:${name}`;

/** Starts polling the queue; stop() aborts the runs (their children get SIGTERM) and releases their jobs. */
export function startCertificationWorker(options: WorkerProcessOptions): CertificationWorker {
  const log = options.log ?? ((line: string) => console.error(line));
  const worker = createCertificationWorker({
    queue: createCertificationQueue({ store: options.store, clock: options.clock, leaseMs: options.leaseMs }),
    run: options.run ?? childProcessRunner({ log }),
    workerId: workerIdOf(),
    concurrency: options.concurrency ?? 1,
    pollMs: options.pollMs,
    log,
  });
  worker.start();
  return worker;
}
