import type { Command, CommandIo } from '../command-io';

// A CLI command run inside the test's own process through `(argv, io)`: what a spawned run
// would print and exit with, without a second Node and tsx compile per case (seconds each on
// a loaded 2-core machine). Only signals, orphans and the real binary need a process.

export interface InProcessOptions {
  /** The command's whole environment (not merged with this process's). */
  env?: NodeJS.ProcessEnv;
  stdoutIsTTY?: boolean;
  stderrIsTTY?: boolean;
  /** Sees every stdout write as it happens (e.g. to learn a listening URL). */
  onStdout?: (text: string) => void;
}

export interface InProcessRun {
  /** The exit code the command returns. */
  exit: Promise<number>;
  stdout: () => string;
  stderr: () => string;
  /** Trips the command's signal, as SIGINT/SIGTERM does in `runAsProcess`. */
  stop: (signal?: 'SIGINT' | 'SIGTERM') => void;
}

/** Starts `command` in-process; it runs until it returns or `stop()` is called. */
export function startInProcess(command: Command, argv: string[], options: InProcessOptions = {}): InProcessRun {
  const controller = new AbortController();
  let stdout = '';
  let stderr = '';
  const io: CommandIo = {
    stdout: (text) => {
      stdout += text;
      options.onStdout?.(text);
    },
    stderr: (text) => void (stderr += text),
    env: options.env ?? {},
    stdoutIsTTY: options.stdoutIsTTY ?? false,
    stderrIsTTY: options.stderrIsTTY ?? false,
    signal: controller.signal,
  };
  return { exit: command(argv, io), stdout: () => stdout, stderr: () => stderr, stop: (signal = 'SIGINT') => controller.abort(signal) };
}

/** Runs `command` in-process to its end: the exit code and everything it printed. */
export async function runInProcess(
  command: Command,
  argv: string[],
  options: InProcessOptions = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const run = startInProcess(command, argv, options);
  const code = await run.exit;
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}
