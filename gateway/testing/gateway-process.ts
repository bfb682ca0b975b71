import { killAllNodeChildren, startNodeChild, type NodeChild } from './node-child';

// The gateway as a real child process, as `npm run gateway` runs it (bundled by
// scripts/run-bundled.mjs), on a free loopback port (GATEWAY_PORT=0), its URL read from its
// "listening on" line. For tests that kill it (SIGKILL) and benches that measure it from outside.

export type GatewayProcess = NodeChild;

export interface GatewayProcessOptions {
  /** Added to this process's environment; GATEWAY_PORT is always 0, GATEWAY_HOST 127.0.0.1 unless given. */
  env: Record<string, string>;
  nodeFlags?: string[];
  startTimeoutMs?: number;
}

export const killAllGatewayProcesses = killAllNodeChildren;

export function startGatewayProcess(options: GatewayProcessOptions): Promise<GatewayProcess> {
  return startNodeChild({
    name: 'gateway',
    args: ['scripts/run-bundled.mjs', 'gateway'],
    env: { GATEWAY_HOST: '127.0.0.1', ...options.env, GATEWAY_PORT: '0' },
    ready: /gateway: listening on (http:\/\/[^\s,]+)/,
    nodeFlags: options.nodeFlags,
    startTimeoutMs: options.startTimeoutMs,
  });
}
