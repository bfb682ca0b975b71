import type { Handler } from 'hono';
import type { Store } from '../store/store';
import type { HealthReply } from '../../shared/http/health-reply';

// GET /health for load balancers: 200 when the store answers, else 503 naming the
// dependency that is down, or reason `draining` once the instance is shutting down (it keeps
// serving a while so the balancer's check can take it out first). Seller systems are not ours to vouch for (their
// breakers show in /metrics).

const STORE_PROBE_TIMEOUT_MS = 2_000;

export const DRAINING_MESSAGE = 'this instance is shutting down; the load balancer sends requests to the others';

export function healthRoute(store: Store, draining: () => boolean = () => false): Handler {
  return async (c) => {
    if (draining()) {
      c.header('Retry-After', '1');
      return c.json(
        {
          status: 'unavailable',
          reason: 'draining',
          store: store.kind,
          message: DRAINING_MESSAGE,
        } satisfies HealthReply,
        503,
      );
    }
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        store.query('SELECT 1'),
        new Promise((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`no answer within ${STORE_PROBE_TIMEOUT_MS} ms`)),
            STORE_PROBE_TIMEOUT_MS,
          );
        }),
      ]);
      return c.json({ status: 'ok', store: store.kind });
    } catch (error) {
      c.header('Retry-After', '5');
      return c.json(
        {
          status: 'unavailable',
          down: ['store'],
          store: store.kind,
          message: `the store (${store.kind}) cannot be reached: ${(error as Error).message}`,
        },
        503,
      );
    } finally {
      clearTimeout(timer);
    }
  };
}
