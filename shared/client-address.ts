import type { Context } from 'hono';

// The address of the connection a request came on (@hono/node-server's `incoming`): the key of
// per-address limits. Not X-Forwarded-For, which any client can write; behind a load balancer
// every client shares its address, so per-address limits there count the balancer's clients
// together (docs/gateway/answers.md). In-process requests (app.request in tests) may pass `incoming`
// as their env; without one the address is 'unknown'.

export function clientAddress(c: Context): string {
  const env = c.env as
    | {
        incoming?: { socket?: { remoteAddress?: string } };
        server?: { incoming?: { socket?: { remoteAddress?: string } } };
      }
    | undefined;
  return (env?.incoming ?? env?.server?.incoming)?.socket?.remoteAddress ?? 'unknown';
}
