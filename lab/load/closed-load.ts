import { Pool } from 'undici';
import type { LoadHandlers } from './load-request';

// Closed-loop load: each of `connections` workers sends its next request as soon as the last
// one answered, for a while. What it completes per second is the saturation rate of the mix
// the handlers send (autocannon does this for one fixed request; this takes any sequence).

export interface ClosedLoadOptions extends LoadHandlers {
  origin: string;
  connections: number;
  seconds: number;
}

export async function closedLoad(options: ClosedLoadOptions): Promise<{ completed: number; rps: number }> {
  const pool = new Pool(options.origin, { connections: options.connections, keepAliveTimeout: 30_000 });
  const begin = performance.now();
  const until = begin + options.seconds * 1000;
  let i = 0;
  let completed = 0;
  const worker = async () => {
    while (performance.now() < until) {
      const request = options.next(i++);
      const started = performance.now();
      try {
        const response = await pool.request({
          method: 'POST',
          path: request.path,
          headers: { 'content-type': 'application/json', ...request.headers },
          body: request.body,
        });
        const body = await response.body.text();
        completed++;
        options.onAnswer?.({ request, status: response.statusCode, body, ms: performance.now() - started });
      } catch (error) {
        options.onError?.(request, error);
      }
    }
  };
  await Promise.all(Array.from({ length: options.connections }, worker));
  const elapsed = (performance.now() - begin) / 1000;
  await pool.close();
  return { completed, rps: Math.round((completed / elapsed) * 10) / 10 };
}
