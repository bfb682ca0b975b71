import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from '../store/store-config';

// The gateway as a real child process (`node --import tsx gateway/server.ts`, what `npm run
// gateway` runs), for tests and scripts that kill it (SIGKILL) or measure it from outside
// (RSS). It listens on a free loopback port (GATEWAY_PORT=0) and reports the URL from its
// "listening on" line. Every child still alive is SIGKILLed when this process exits, so a
// failing test never leaves a gateway behind.

export interface GatewayProcess {
  url: string;
  pid: number;
  /** What the child wrote on stderr so far (its start-up and shutdown lines, errors). */
  stderr(): string;
  /** Sends the signal (default SIGKILL) and resolves once the child has exited. */
  kill(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface GatewayProcessOptions {
  /** Added to this process's environment (GATEWAY_PORT and GATEWAY_HOST are set to a free loopback port). */
  env: Record<string, string>;
  /** How long the child may take to listen (tsx compiles on start; shared machines are slow). */
  startTimeoutMs?: number;
}

const SERVER_FILE = join(REPO_ROOT, 'gateway', 'server.ts');
const live = new Set<ChildProcess>();
let exitHookInstalled = false;

function installExitHook() {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const child of live) child.kill('SIGKILL');
  });
}

/** SIGKILLs every gateway child still running; for afterAll/afterEach and signal handlers. */
export async function killAllGatewayProcesses(): Promise<void> {
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

export async function startGatewayProcess(options: GatewayProcessOptions): Promise<GatewayProcess> {
  installExitHook();
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER_FILE], {
    cwd: REPO_ROOT,
    env: { ...process.env, GATEWAY_HOST: '127.0.0.1', ...options.env, GATEWAY_PORT: '0' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  live.add(child);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => {
      live.delete(child);
      resolve({ code, signal });
    });
  });
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the gateway did not listen within ${options.startTimeoutMs ?? 60_000} ms; stderr:\n${stderr}`));
    }, options.startTimeoutMs ?? 60_000);
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => {
      stderr += chunk;
      const listening = /gateway: listening on (http:\/\/\S+?),/.exec(stderr);
      if (listening !== null) {
        clearTimeout(timer);
        resolve(listening[1]);
      }
    });
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`the gateway exited before listening (code ${code}, signal ${signal}); stderr:\n${stderr}`));
    });
  });
  return {
    url,
    pid: child.pid!,
    stderr: () => stderr,
    async kill(signal: NodeJS.Signals = 'SIGKILL') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}
