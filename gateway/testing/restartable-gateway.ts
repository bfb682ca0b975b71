import { startNodeChild, type NodeChild } from './node-child';
import { freePort } from './throwaway-postgres';

// A gateway process (`npm run gateway`, bundled) on a port of its own that stays its own across
// restarts, as a balancer's server line needs: for rolling restarts under load.

export interface RestartableGateway {
  /** host:port, for the balancer's configuration. */
  address: string;
  url: string;
  /** The running process (its pid changes at each restart). */
  current(): NodeChild;
  /** Everything it printed on stderr since it started, across restarts. */
  stderr(): string;
  /**
   * SIGTERM (it drains, then finishes what is in flight), then, `downMs` after it has exited (a
   * deploy's copy and install), a new process on the same port.
   */
  restart(downMs?: number): Promise<{ stoppedMs: number; startedMs: number }>;
  /** Sends a signal to the running process (SIGHUP: a worker reload). */
  signal(signal: NodeJS.Signals): void;
  kill(): Promise<void>;
}

export async function startRestartableGateway(env: Record<string, string>): Promise<RestartableGateway> {
  const port = await freePort();
  let stderr = '';
  const start = async () => {
    const child = await startNodeChild({
      name: 'gateway',
      args: ['scripts/run-bundled.mjs', 'gateway'],
      env: { GATEWAY_HOST: '127.0.0.1', ...env, GATEWAY_PORT: String(port) },
      ready: /gateway: listening on (http:\/\/[^\s,]+)/,
    });
    stderr += child.output();
    child.process.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    return child;
  };
  let child = await start();
  return {
    address: `127.0.0.1:${port}`,
    url: `http://127.0.0.1:${port}`,
    current: () => child,
    stderr: () => stderr,
    async restart(downMs = 0) {
      const begin = performance.now();
      const exit = await child.kill('SIGTERM');
      if (exit.code !== 0)
        throw new Error(`gateway on port ${port} exited ${exit.signal ?? `code ${exit.code}`} on SIGTERM:\n${stderr}`);
      const stopped = performance.now();
      await new Promise((resolve) => setTimeout(resolve, downMs));
      child = await start();
      return { stoppedMs: Math.round(stopped - begin), startedMs: Math.round(performance.now() - stopped) };
    },
    signal: (signal) => void child.process.kill(signal),
    async kill() {
      await child.kill('SIGKILL');
    },
  };
}
