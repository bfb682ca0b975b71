import type { Handler } from 'hono';
import type { Store } from '../store/store';

// GET /health for load balancers: 200 when the store answers, else 503 naming the
// dependency that is down. Seller systems are not ours to vouch for (their breakers show in
// /metrics).

const STORE_PROBE_TIMEOUT_MS = 2_000;

export function healthRoute(store: Store): Handler {
  return async (c) => {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        store.query('SELECT 1'),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer within ${STORE_PROBE_TIMEOUT_MS} ms`)), STORE_PROBE_TIMEOUT_MS);
        }),
      ]);
      return c.json({ status: 'ok', store: store.kind });
    } catch (error) {
      c.header('Retry-After', '5');
      return c.json(
        { status: 'unavailable', down: ['store'], store: store.kind, message: `the store (${store.kind}) cannot be reached: ${(error as Error).message}` },
        503,
      );
    } finally {
      clearTimeout(timer);
    }
  };
}
