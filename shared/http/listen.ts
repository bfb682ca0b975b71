import { serve } from '@hono/node-server';
import type { Server } from 'node:http';
import { Server as NetServer, type AddressInfo } from 'node:net';
import { connectionSettings, type ConnectionSettings } from './connection-environment';
import { createConnectionGuard, type ConnectionGuard } from './connection-guard';

// The one way every component (gateway, internal API, mock seller, kit, record, benches,
// tests) serves a fetch handler: listen, wait until bound, read the real port back. Every
// server also sheds clients that hold connections without finishing a request (timeouts of
// seconds, Node's are minutes) and counts its connections against the process's cap
// (connection-guard.ts), so a connection flood cannot take the process's last descriptor.

export type FetchHandler = (request: Request, ...rest: never[]) => Response | Promise<Response>;

export interface ListenOptions {
  /** 0 (the default) picks a free port; the bound one is reported. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /**
   * Overrides the environment's HTTP_* settings (connection-environment.ts). A server given its
   * own maxConnections has a cap of its own; the others share the process's.
   */
  connections?: Partial<ConnectionSettings>;
  /**
   * While it returns true every answer carries Connection: close (a draining server, drain.ts),
   * so a balancer's kept-alive connections end after their request and the next goes elsewhere.
   * Answers also close their connection once drain() or close() has begun.
   */
  draining?: () => boolean;
}

let processGuard: ConnectionGuard | undefined;
/** One cap for every server of the process: they share its descriptors. */
const sharedGuard = (cap: number) => (processGuard ??= createConnectionGuard(cap));

export interface Listening {
  /** e.g. http://127.0.0.1:40123 (IPv6 hosts bracketed). */
  url: string;
  port: number;
  server: Server;
  /**
   * Counts this server's connections against its cap (shared with the process's other servers unless given its own).
   */
  connections: ConnectionGuard;
  /** Stops listening and drops every open connection at once. Idempotent. */
  close(): Promise<void>;
  /**
   * Stops accepting, closes idle keep-alive connections, lets requests in flight finish for
   * up to `graceMs`, then drops what is left. Idempotent (shares close()'s promise).
   * With `idleGraceMs` idle connections are left open that long first (a request on one is
   * answered with Connection: close), so a client that uses its connections is told to close
   * rather than having one closed under a request it is sending.
   */
  drain(graceMs: number, idleGraceMs?: number): Promise<void>;
}

/** Serves `fetch` and resolves once it listens; rejects with the listen error (EADDRINUSE…). */
export async function listen(fetch: FetchHandler, options: ListenOptions = {}): Promise<Listening> {
  const { port = 0, host = '127.0.0.1' } = options;
  const settings = { ...connectionSettings(), ...options.connections };
  const serverOptions = {
    headersTimeout: Math.min(settings.headersTimeoutMs, settings.requestTimeoutMs),
    requestTimeout: settings.requestTimeoutMs,
    keepAliveTimeout: settings.keepAliveTimeoutMs,
    // Node checks the two timeouts every 30 s by default: a 10 s limit would hold for up to 40.
    connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(settings.headersTimeoutMs / 4))),
  };
  let stopped: Promise<void> | undefined;
  const guard =
    options.connections?.maxConnections === undefined
      ? sharedGuard(settings.maxConnections)
      : createConnectionGuard(settings.maxConnections);
  const server = await new Promise<Server>((resolve, reject) => {
    const s = serve(
      { fetch: fetch as (request: Request) => Response | Promise<Response>, port, hostname: host, serverOptions },
      () => resolve(s as Server),
    ) as Server;
    guard.watch(s);
    // Before the app's listener, so the header is set whatever the app answers.
    s.prependListener('request', (_request, response) => {
      if (stopped !== undefined || options.draining?.() === true) response.setHeader('connection', 'close');
    });
    s.once('error', reject);
  });
  const bound = (server.address() as AddressInfo).port;
  const drain = (graceMs: number, idleGraceMs = 0): Promise<void> =>
    (stopped ??= (async () => {
      const closed = new Promise<void>((resolve) => {
        // http.Server's close() also closes every idle keep-alive connection at once, including one
        // a client is sending a request on; with an idle grace only the listening socket closes now.
        if (idleGraceMs > 0) NetServer.prototype.close.call(server, () => resolve());
        else server.close(() => resolve());
      });
      if (idleGraceMs > 0)
        await Promise.race([
          closed,
          new Promise<void>((resolve) => setTimeout(resolve, Math.min(idleGraceMs, graceMs)).unref()),
        ]);
      server.closeIdleConnections();
      // A keep-alive connection that finishes its request becomes idle: sweep until the grace ends.
      const sweep = setInterval(() => server.closeIdleConnections(), 100);
      const grace = new Promise<void>((resolve) => setTimeout(resolve, graceMs).unref());
      await Promise.race([closed, grace]);
      clearInterval(sweep);
      server.closeAllConnections();
      await closed;
    })());
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${bound}`,
    port: bound,
    server,
    connections: guard,
    close: () => drain(0),
    drain,
  };
}

/** A loopback port that nothing listens on at the moment of asking (for "seller unreachable" cases). */
export async function unusedPort(host = '127.0.0.1'): Promise<number> {
  const { port, close } = await listen(() => new Response(null), { host });
  await close();
  return port;
}
