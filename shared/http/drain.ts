// How a server leaves a load balancer's rotation without losing a request: on the first stop
// signal it reports itself draining (/health answers 503, every answer closes its connection)
// while it keeps serving for drainMs, long enough for the balancer's health check to take it
// out; only then does it stop accepting and finish what is in flight. skip() ends the wait.

export type DrainPhase = 'serving' | 'draining' | 'stopping';

/** Resolves after `ms`, or at once when `cancelled` aborts. Injected so tests drive the clock. */
export type DrainWait = (ms: number, cancelled: AbortSignal) => Promise<void>;

export const timerWait: DrainWait = (ms, cancelled) =>
  new Promise<void>((resolve) => {
    if (cancelled.aborted) return resolve();
    const timer = setTimeout(resolve, ms);
    cancelled.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });

export interface Drain {
  phase(): DrainPhase;
  /** From the first stop signal on: /health answers 503 (reason `draining`), answers say Connection: close. */
  draining(): boolean;
  /**
   * Enters draining (once; later calls share the promise); resolves
   * when the period is over or skipped, in phase `stopping`.
   */
  begin(): Promise<void>;
  /** Ends the drain period now (a second signal, or SIGINT); begins it first if it had not begun. */
  skip(): Promise<void>;
}

export function createDrain(options: { drainMs: number; wait?: DrainWait }): Drain {
  const wait = options.wait ?? timerWait;
  const skipped = new AbortController();
  let phase: DrainPhase = 'serving';
  let period: Promise<void> | undefined;
  const begin = () =>
    (period ??= (async () => {
      phase = 'draining';
      if (options.drainMs > 0 && !skipped.signal.aborted) await wait(options.drainMs, skipped.signal);
      phase = 'stopping';
    })());
  return {
    phase: () => phase,
    draining: () => phase !== 'serving',
    begin,
    skip() {
      skipped.abort();
      return begin();
    },
  };
}
