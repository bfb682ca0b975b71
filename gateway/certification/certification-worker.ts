import { FencedOut, type CertificationQueue, type FinishedJob } from './certification-queue';
import type { CertificationOutcome, CertificationRunner, CertificationSpec } from './certification-types';

// The worker loop: claim up to `concurrency` jobs, run each (the runner is given: the kit lives
// in an entry point), heartbeat its lease while it runs, finish it with the outcome. A job
// whose lease was lost (another worker claimed it after a lapse) is stopped and never
// finished here; a late finish would be refused by the fence anyway. stop() aborts the runs
// and releases their jobs, so another worker takes them at once.

export interface CertificationWorkerOptions {
  queue: CertificationQueue;
  run: CertificationRunner;
  /** Recorded as the job's claimed_by: host and process, say. */
  workerId: string;
  /** Jobs run at once (default 1). */
  concurrency?: number;
  /** How often the queue is asked when idle (default 2 s). */
  pollMs?: number;
  /** How often a running job's lease is extended (default a third of the lease). */
  heartbeatMs?: number;
  log?: (line: string) => void;
  /** Told after each job is finished (the certificate written), or refused by the fence. */
  onFinished?: (finished: FinishedJob | { fenced: CertificationSpec }) => void;
}

interface Running {
  spec: CertificationSpec;
  abort: AbortController;
  done: Promise<void>;
}

const STOPPING = 'the certification worker is stopping';
const LEASE_LOST = 'the lease on this job was lost (another worker holds it now)';

interface WorkerState {
  options: CertificationWorkerOptions;
  concurrency: number;
  heartbeatMs: number;
  log: (line: string) => void;
  running: Map<number, Running>;
  stopped: boolean;
  filling?: Promise<void>;
}

async function outcomeOf(w: WorkerState, spec: CertificationSpec, signal: AbortSignal): Promise<CertificationOutcome> {
  try {
    return await w.options.run(spec, signal);
  } catch (error) {
    return { kind: 'error', message: `the certification run failed: ${(error as Error).message}` };
  }
}

async function settle(w: WorkerState, spec: CertificationSpec, abort: AbortController, outcome: CertificationOutcome) {
  const { queue, onFinished } = w.options;
  const reason: unknown = abort.signal.reason;
  if (abort.signal.aborted && reason === STOPPING) {
    // A graceful stop: the run was cut short, so it proves nothing. Hand the job back.
    if (await queue.release(spec)) w.log(`certification: job ${spec.jobId} released (${STOPPING})`);
    return;
  }
  if (abort.signal.aborted && reason === LEASE_LOST) {
    w.log(`certification: job ${spec.jobId} attempt ${spec.attempt} dropped: ${LEASE_LOST}`);
    return;
  }
  try {
    const finished = await queue.finish(spec, outcome);
    w.log(`certification: job ${spec.jobId} of member ${spec.memberId} ${finished.job.status}`);
    onFinished?.(finished);
  } catch (error) {
    if (!(error instanceof FencedOut)) throw error;
    w.log(`certification: ${error.message}`);
    onFinished?.({ fenced: spec });
  }
}

function launch(w: WorkerState, spec: CertificationSpec): void {
  const abort = new AbortController();
  const beat = setInterval(() => {
    w.options.queue.heartbeat(spec).then(
      (held) => {
        if (!held) abort.abort(LEASE_LOST);
      },
      // The store did not answer: keep running; if the lease lapses meanwhile, the fence decides.
      (error: Error) => w.log(`certification: job ${spec.jobId} heartbeat failed: ${error.message}`),
    );
  }, w.heartbeatMs);
  beat.unref();
  w.log(`certification: job ${spec.jobId} of member ${spec.memberId} claimed (attempt ${spec.attempt})`);
  const done = outcomeOf(w, spec, abort.signal)
    .finally(() => clearInterval(beat))
    .then((outcome) => settle(w, spec, abort, outcome))
    .catch((error: Error) => w.log(`certification: job ${spec.jobId}: ${error.message}`))
    .finally(() => {
      w.running.delete(spec.jobId);
      if (!w.stopped) void fill(w);
    });
  w.running.set(spec.jobId, { spec, abort, done });
}

/** Claims jobs while there are free slots and queued jobs. */
function fill(w: WorkerState): Promise<void> {
  w.filling ??= (async () => {
    try {
      while (!w.stopped && w.running.size < w.concurrency) {
        const spec = await w.options.queue.claim(w.options.workerId);
        if (spec === undefined) break;
        launch(w, spec);
      }
    } catch (error) {
      w.log(`certification: cannot claim a job: ${(error as Error).message}`);
    } finally {
      w.filling = undefined;
    }
  })();
  return w.filling;
}

export function createCertificationWorker(options: CertificationWorkerOptions) {
  const pollMs = options.pollMs ?? 2_000;
  const w: WorkerState = {
    options,
    concurrency: options.concurrency ?? 1,
    heartbeatMs: options.heartbeatMs ?? Math.max(1_000, Math.floor(options.queue.leaseMs / 3)),
    log: options.log ?? (() => {}),
    running: new Map(),
    stopped: false,
  };
  let timer: NodeJS.Timeout | undefined;
  const schedule = (): void => {
    if (w.stopped) return;
    clearTimeout(timer);
    timer = setTimeout(() => void fill(w).then(schedule), pollMs);
    timer.unref();
  };

  return {
    workerId: options.workerId,
    /** Polls the queue until stop(). */
    start: (): void => void fill(w).then(schedule),
    /** Looks for work now (a job was just asked for, or a slot freed). */
    wake: (): void => {
      if (!w.stopped) void fill(w);
    },
    /** Claims what there is room for and waits until those jobs, and any started since, are done (tests, `--once`). */
    async drain(): Promise<void> {
      await fill(w);
      while (w.running.size > 0) {
        await Promise.all([...w.running.values()].map((r) => r.done));
        await fill(w);
      }
    },
    /** The jobs this worker runs now. */
    running: (): number[] => [...w.running.keys()],
    /** Stops claiming, aborts the runs and releases their jobs; settles once all are handed back. */
    async stop(): Promise<void> {
      w.stopped = true;
      clearTimeout(timer);
      await w.filling;
      for (const r of w.running.values()) r.abort.abort(STOPPING);
      await Promise.all([...w.running.values()].map((r) => r.done));
    },
  };
}

export type CertificationWorker = ReturnType<typeof createCertificationWorker>;
