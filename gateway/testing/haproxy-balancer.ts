import { spawn, type ChildProcess } from 'node:child_process';
import { packagePath } from '../../shared/package-root';
import { freePort } from './throwaway-postgres';

// Debian's haproxy with the shipped gateway/cluster/haproxy.cfg in front of two gateway
// instances, on a free loopback port: for the multi-instance test and `npm run -w lab soak -- --chaos`.

export interface Balancer {
  url: string;
  process: ChildProcess;
  /** What HAProxy printed (its warnings, servers going DOWN and UP). */
  output(): string;
  close(): Promise<void>;
}

/** Why HAProxy cannot run here, or undefined when it can. */
export const haproxyMissing = (): Promise<string | undefined> =>
  new Promise((resolve) => {
    const probe = spawn('haproxy', ['-v'], { stdio: 'ignore' });
    probe.once('error', () => resolve('haproxy not on PATH (.ci/run installs it)'));
    probe.once('exit', (code) => resolve(code === 0 ? undefined : `haproxy -v exited ${code}`));
  });

/** Starts HAProxy over `gateways` (host:port each, two) and resolves once it listens. */
export async function startBalancer(gateways: [string, string]): Promise<Balancer> {
  const port = await freePort();
  let output = '';
  const haproxy = spawn('haproxy', ['-db', '-f', packagePath('gateway', 'cluster', 'haproxy.cfg')], {
    env: { ...process.env, FGW_LB_BIND: `127.0.0.1:${port}`, FGW_GATEWAY_1: gateways[0], FGW_GATEWAY_2: gateways[1] },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  haproxy.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  haproxy.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => haproxy.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const giveUp = Date.now() + 10_000;
  while ((await fetch(`${url}/health`).catch(() => undefined)) === undefined) {
    if (Date.now() > giveUp || haproxy.exitCode !== null)
      throw new Error(`HAProxy did not listen within 10 s:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url,
    process: haproxy,
    output: () => output,
    async close() {
      haproxy.kill('SIGKILL');
      await exited;
    },
  };
}

/**
 * Resolves once the balancer sends requests to every one of
 * `servers` (its X-Served-By names), i.e. their checks passed.
 */
export async function untilBalancedOver(balancer: Balancer, servers: string[], timeoutMs = 30_000): Promise<void> {
  const giveUp = Date.now() + timeoutMs;
  for (;;) {
    const served = new Set<string>();
    for (let i = 0; i < servers.length * 2; i++) {
      const answer = await fetch(`${balancer.url}/health`).catch(() => undefined);
      if (answer?.status === 200) served.add(answer.headers.get('x-served-by') ?? '');
    }
    if (servers.every((s) => served.has(s))) return;
    if (Date.now() > giveUp)
      throw new Error(
        `HAProxy did not balance over ${servers.join(', ')} within ${timeoutMs} ms:\n${balancer.output()}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
