// SIGHUP to a cluster's primary replaces its workers one at a time, as `pm2 reload` does: a new
// worker is started and listening before an old one is retired, so the port always has at least
// N workers accepting and a deploy on one machine loses nothing. A retired worker does not drain
// (/health stays 200: the machine stays in the balancer's rotation); it stops accepting, answers
// its kept-alive connections with Connection: close and finishes what is in flight.

/**
 * How long a retired worker leaves its idle kept-alive connections open, answering any request
 * on them with Connection: close, before it closes them: a client that is using a connection
 * hears to close it instead of having it closed under a request it is sending.
 */
export const RETIRE_IDLE_GRACE_MS = 1_000;

/** The primary's message to a worker it is retiring. */
export const RETIRE_MESSAGE = 'federated-gateway:retire';

/** In a worker: on the primary's retire message, `stop` (stop accepting, finish in flight), then exit. */
export function onRetire(stop: () => Promise<void>, log: (line: string) => void = (line) => console.error(line)): void {
  let retiring = false;
  process.on('message', (message: unknown) => {
    if (message !== RETIRE_MESSAGE || retiring) return;
    retiring = true;
    log(`gateway worker ${process.pid}: retired by a reload, finishing in-flight requests`);
    stop().then(
      () => process.exit(0),
      (error: unknown) => {
        log(`gateway worker ${process.pid}: shutdown failed: ${(error as Error).message}`);
        process.exit(1);
      },
    );
  });
}

export interface RollingReloadSteps<W> {
  /** Starts a new worker; resolves once it listens, rejects when it dies (or takes too long) first. */
  start(): Promise<W>;
  /** Retires an old worker; resolves once it has exited. */
  retire(worker: W): Promise<void>;
  log(line: string): void;
}

/**
 * Replaces `old` one worker at a time: start one, then retire one. A new worker that fails to
 * start stops the reload, the old workers left serving (a bad deploy does not take the machine down).
 */
export async function replaceOneAtATime<W>(
  old: readonly W[],
  steps: RollingReloadSteps<W>,
): Promise<{ replaced: number; failure?: string }> {
  let replaced = 0;
  for (const worker of old) {
    try {
      await steps.start();
    } catch (error) {
      const failure = (error as Error).message;
      steps.log(
        `gateway: reload stopped after ${replaced} of ${old.length} workers: a new worker did not start (${failure}); the others serve on`,
      );
      return { replaced, failure };
    }
    await steps.retire(worker);
    replaced++;
  }
  steps.log(`gateway: reload done, ${replaced} workers replaced`);
  return { replaced };
}
