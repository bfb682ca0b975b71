import type { CommandIo } from '../command-io';

// A CLI command run inside the test's own process through `(argv, io)`: what a spawned run
// would print and exit with, without a second Node and tsx compile per case (seconds each on
// a loaded 2-core machine). Only signals, orphans and the real binary need a process.

/** A command, or anything called as one (a usage gate answers `undefined` when it steps aside). */
export type InProcessCommand<T> = (argv: string[], io: CommandIo) => Promise<T>;

export interface InProcessOptions {
  /** The command's whole environment (not merged with this process's). */
  env?: NodeJS.ProcessEnv;
  stdoutIsTTY?: boolean;
  stderrIsTTY?: boolean;
  /** Sees every stdout write as it happens (e.g. to learn a listening URL). */
  onStdout?: (text: string) => void;
}

export interface InProcessRun<T = number> {
  /** The exit code the command returns. */
  exit: Promise<T>;
  stdout: () => string;
  stderr: () => string;
  /** Both streams in the order they were written, as a terminal shows them. */
  output: () => string;
  /**
   * Resolves once `stream` (default stdout) shows `pattern`, with its first group (or the whole
   * match): e.g. the URL a server prints. Rejects, with what was printed, if the command ends first.
   */
  printed: (pattern: RegExp, stream?: 'stdout' | 'stderr') => Promise<string>;
  /** Trips the command's signal, as SIGINT/SIGTERM does in `runAsProcess`. */
  stop: (signal?: 'SIGINT' | 'SIGTERM') => void;
}

/** Starts `command` in-process; it runs until it returns or `stop()` is called. */
export function startInProcess<T = number>(
  command: InProcessCommand<T>,
  argv: string[],
  options: InProcessOptions = {},
): InProcessRun<T> {
  const controller = new AbortController();
  const text = { stdout: '', stderr: '', both: '' };
  const waiters = new Set<{
    stream: 'stdout' | 'stderr';
    pattern: RegExp;
    found: (match: string) => void;
    ended: (why: Error) => void;
  }>();
  const look = (stream: 'stdout' | 'stderr') => {
    for (const waiter of waiters) {
      const match = waiter.stream === stream ? waiter.pattern.exec(text[stream]) : null;
      if (match === null) continue;
      waiters.delete(waiter);
      waiter.found(match[1] ?? match[0]);
    }
  };
  const write = (stream: 'stdout' | 'stderr', chunk: string) => {
    text[stream] += chunk;
    text.both += chunk;
    look(stream);
  };
  const io: CommandIo = {
    stdout: (chunk) => {
      write('stdout', chunk);
      options.onStdout?.(chunk);
    },
    stderr: (chunk) => write('stderr', chunk),
    env: options.env ?? {},
    stdoutIsTTY: options.stdoutIsTTY ?? false,
    stderrIsTTY: options.stderrIsTTY ?? false,
    signal: controller.signal,
  };
  const exit = command(argv, io);
  let ended: string | undefined;
  const endWaiters = (how: string) => {
    ended = how;
    for (const waiter of waiters)
      waiter.ended(
        new Error(`the command ${how} before its ${waiter.stream} showed ${waiter.pattern}; it printed:\n${text.both}`),
      );
    waiters.clear();
  };
  exit.then(
    (code) => endWaiters(`exited (${String(code)})`),
    () => endWaiters('failed'),
  );
  const printed = (pattern: RegExp, stream: 'stdout' | 'stderr' = 'stdout') => {
    const seen = new Promise<string>((found, lost) => {
      waiters.add({ stream, pattern, found, ended: lost });
      look(stream);
      if (ended !== undefined) endWaiters(ended);
    });
    // A test that never awaits it (the command failed, as the test expects) is not an unhandled rejection.
    seen.catch(() => {});
    return seen;
  };
  return {
    exit,
    stdout: () => text.stdout,
    stderr: () => text.stderr,
    output: () => text.both,
    printed,
    stop: (signal = 'SIGINT') => controller.abort(signal),
  };
}

/** Runs `command` in-process to its end: the exit code and everything it printed. */
export async function runInProcess<T = number>(
  command: InProcessCommand<T>,
  argv: string[],
  options: InProcessOptions = {},
): Promise<{ code: T; stdout: string; stderr: string }> {
  const run = startInProcess(command, argv, options);
  const code = await run.exit;
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}
