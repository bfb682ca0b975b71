// How a CLI command meets the world: writers for stdout/stderr, the environment, and an
// AbortSignal that SIGINT/SIGTERM trip. Commands take it as a parameter so tests run them
// in-process and the bin wires the real process once.

export interface CommandIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: NodeJS.ProcessEnv;
  /** Aborted on SIGINT or SIGTERM; `signal.reason` is the signal's name. */
  signal: AbortSignal;
}

export type Command = (argv: string[], io: CommandIo) => Promise<number>;

/** Exit status of a process stopped by a signal, as shells report it (128 + number). */
export const SIGNAL_EXIT: Record<string, number> = { SIGINT: 130, SIGTERM: 143 };

/** Runs `command` as this process: real streams, signals abort it, its result is the exit code. */
export function runAsProcess(command: Command, argv = process.argv.slice(2)): void {
  const controller = new AbortController();
  const onSignal = (name: NodeJS.Signals) => {
    if (controller.signal.aborted) {
      // A second Ctrl-C: the user means it.
      process.exit(SIGNAL_EXIT[name] ?? 1);
    }
    controller.abort(name);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const io: CommandIo = {
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    env: process.env,
    signal: controller.signal,
  };
  command(argv, io).then(
    (code) => {
      process.exitCode = code;
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
