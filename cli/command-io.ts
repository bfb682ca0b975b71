import { chainBroken, launchChain } from './launch-chain';

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
  // `timeout 300 npm run …`, a cancelled CI job or `kill %1` on `npx … &` may end only a
  // launcher (npm, the sh it runs, tsx's CLI): when one goes away we stop as if told to,
  // rather than run on as an orphan (cli/launch-chain.ts).
  const chain = launchChain();
  // Started by npm but already reparented to init: the launcher died while we loaded (tsx
  // compiles for a second or more before this line runs), so no change would ever be seen.
  const orphaned =
    (process.env.npm_command !== undefined || process.env.npm_lifecycle_event !== undefined) && process.ppid === 1;
  const watchdog = setInterval(() => {
    if (!controller.signal.aborted && chainBroken(chain)) controller.abort('SIGTERM');
  }, 500);
  watchdog.unref();
  if (orphaned) queueMicrotask(() => controller.abort('SIGTERM'));
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
