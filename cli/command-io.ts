// How a CLI command meets the world: writers for stdout/stderr, the environment, and an
// AbortSignal that SIGINT/SIGTERM trip. Commands take it as a parameter so tests run them
// in-process and the bin wires the real process once.

export interface CommandIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: NodeJS.ProcessEnv;
  /** Whether stdout / stderr are terminals (colour only there). */
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
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
  // `timeout 300 npm run …` or a cancelled CI job may kill only our parent: when it goes
  // away we are reparented, and stop as if told to, rather than run on as an orphan.
  const parent = process.ppid;
  const watchdog = setInterval(() => {
    if (process.ppid !== parent && !controller.signal.aborted) controller.abort('SIGTERM');
  }, 500);
  watchdog.unref();
  const io: CommandIo = {
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    env: process.env,
    stdoutIsTTY: process.stdout.isTTY === true,
    stderrIsTTY: process.stderr.isTTY === true,
    signal: controller.signal,
  };
  // Exit as soon as the command is done: an idle keep-alive socket must not hold the process.
  // (stdout and stderr are synchronous for files and pipes on Linux, so nothing is lost.)
  command(argv, io).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    },
  );
}
