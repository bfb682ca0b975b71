import { spawn, type ChildProcess } from 'node:child_process';
import { PACKAGE_ROOT } from '../../shared/package-root';

// An entry point of this repository run as a child process (`node --import tsx <file>` for a
// TypeScript one, `node <file>` for scripts/run-bundled.mjs), ready once its output matches a
// pattern (its "listening on <url>" line). For tests and benches that need the gateway or the
// mock seller in a process of its own: to kill it (SIGKILL) or to measure it from outside (RSS,
// CPU). Every child still alive is SIGKILLed when this process exits, so a failing test or an
// interrupted bench leaves none behind.

export interface NodeChild {
  /** The first capture group of the ready pattern (the URL). */
  url: string;
  pid: number;
  process: ChildProcess;
  /** What the child wrote so far, stdout and stderr together (start-up lines, errors). */
  output(): string;
  /** Sends the signal (default SIGKILL) and resolves once the child has exited. */
  kill(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface NodeChildOptions {
  /** For messages: 'gateway', 'mock seller'. */
  name: string;
  /** The file and its arguments, relative to the repository root. */
  args: string[];
  /** Added to this process's environment. */
  env?: Record<string, string>;
  /** Matched against everything the child printed; group 1 is the URL. */
  ready: RegExp;
  /** Node flags before the file (e.g. --max-semi-space-size=32). */
  nodeFlags?: string[];
  /** How long the child may take to be ready (tsx compiles on start; shared machines are slow). */
  startTimeoutMs?: number;
}

const live = new Set<ChildProcess>();
let exitHookInstalled = false;

/** SIGKILLs every child still running; for afterAll and signal handlers. */
export async function killAllNodeChildren(): Promise<void> {
  await Promise.all(
    [...live].map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGKILL');
        }),
    ),
  );
}

export async function startNodeChild(options: NodeChildOptions): Promise<NodeChild> {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => {
      for (const child of live) child.kill('SIGKILL');
    });
  }
  const typescript = options.args[0]?.endsWith('.ts') ?? false;
  const child = spawn(
    process.execPath,
    [...(options.nodeFlags ?? []), ...(typescript ? ['--import', 'tsx'] : []), ...options.args],
    {
      cwd: PACKAGE_ROOT,
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  live.add(child);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => {
      live.delete(child);
      resolve({ code, signal });
    });
  });
  let output = '';
  const timeoutMs = options.startTimeoutMs ?? 120_000;
  const url = await new Promise<string>((resolve, reject) => {
    let ready = false;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${options.name} was not ready within ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      // Keep only the start-up lines: a long-running child's output must not pile up here.
      if (ready) return;
      output += chunk.toString();
      const match = options.ready.exec(output);
      if (match !== null) {
        ready = true;
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`${options.name} exited before it was ready (code ${code}, signal ${signal}):\n${output}`));
    });
  });
  return {
    url,
    pid: child.pid!,
    process: child,
    output: () => output,
    async kill(signal: NodeJS.Signals = 'SIGKILL') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}
