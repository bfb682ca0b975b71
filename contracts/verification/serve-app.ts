import { serve } from '@hono/node-server';
import type { Hono } from 'hono';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ServedApp {
  url: string;
  port: number;
  /** Stops listening and drops open connections. */
  close(): Promise<void>;
}

/** Serves a Hono app on `host:port` (0: any free port) and resolves once it listens; rejects with the listen error (EADDRINUSE…). */
export async function serveApp(app: Hono, host = '127.0.0.1', port = 0): Promise<ServedApp> {
  const server = await new Promise<Server>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port, hostname: host }, () => resolve(s as Server)) as Server;
    s.once('error', reject);
  });
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://${host}:${bound}`,
    port: bound,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
