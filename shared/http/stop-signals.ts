import type { Drain } from './drain';

// What a server process does on SIGTERM and SIGINT. SIGTERM is how a deploy or an orchestrator
// stops an instance: drain first (drain.ts), then stop. SIGINT is a person at a terminal (Ctrl-C):
// no balancer to wait for, so it skips the drain, as a second signal of either kind does. Either
// way requests in flight finish (up to the caller's grace period) before the process exits.

export type StopSignal = 'SIGTERM' | 'SIGINT';

export interface StopSignalsOptions {
  /** Prefix of the log lines, e.g. `gateway`. */
  name: string;
  drain: Drain;
  drainMs: number;
  /** Stops accepting and finishes the requests in flight (a server's close()). */
  stop: () => Promise<void>;
  log?: (line: string) => void;
  exit?: (code: number) => void;
  /** Where signals come from (the process; a tests' emitter). */
  on?: (signal: StopSignal, listener: () => void) => void;
}

export function stopOnSignals(options: StopSignalsOptions): void {
  const log = options.log ?? ((line: string) => console.error(line));
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const on = options.on ?? ((signal: StopSignal, listener: () => void) => void process.on(signal, listener));
  const { drain, name } = options;
  let stopped: Promise<void> | undefined;
  const stopAfter = (period: Promise<void>) =>
    (stopped ??= period
      .then(() => options.stop())
      .then(
        () => exit(0),
        (error: unknown) => {
          log(`${name}: shutdown failed: ${(error as Error).message}`);
          exit(1);
        },
      ));

  const onSignal = (signal: StopSignal) => {
    const phase = drain.phase();
    switch (phase) {
      case 'serving':
        if (signal === 'SIGTERM' && options.drainMs > 0) {
          log(
            `${name}: SIGTERM, draining for ${options.drainMs} ms (/health answers 503, answers close their connections), then finishing in-flight requests`,
          );
          void stopAfter(drain.begin());
        } else {
          log(`${name}: ${signal}, finishing in-flight requests (no drain)`);
          void stopAfter(drain.skip());
        }
        return;
      case 'draining':
        log(`${name}: ${signal} while draining, skipping the rest of the drain`);
        void drain.skip();
        return;
      case 'stopping':
        log(`${name}: ${signal}, already stopping (in-flight requests are finishing)`);
        return;
      default:
        return phase satisfies never;
    }
  };
  on('SIGTERM', () => onSignal('SIGTERM'));
  on('SIGINT', () => onSignal('SIGINT'));
}
