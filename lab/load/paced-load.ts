import { Pool } from 'undici';
import type { LoadHandlers, LoadRequest } from './load-request';

/**
 * Open-loop load at a fixed rate: requests leave evenly spaced whether or not earlier ones have
 * answered. autocannon's overallRate is not that: each connection sends back to back until its
 * quota for the second is used up, so its "1,000 req/s" is a burst of saturation at the start
 * of every second, and the latency it shows is mostly queueing behind the burst.
 */
export interface PacedLoadOptions extends LoadHandlers {
  origin: string;
  rate: number;
  seconds: number;
  /** Connections to the origin (default 64). */
  connections?: number;
  /**
   * Most requests waiting for an answer at once: one due while that many wait is not sent and
   * counted as dropped, so a stalled server cannot make the load generator grow without bound.
   */
  maxInFlight?: number;
  /** Stops sending when aborted (before `seconds` are up); the answers still awaited are waited for. */
  signal?: AbortSignal;
}

export interface PacedLoadResult {
  sent: number;
  /** Due while maxInFlight requests were waiting: not sent. */
  dropped: number;
  /** Achieved sending rate. */
  rps: number;
}

export async function pacedLoad(options: PacedLoadOptions): Promise<PacedLoadResult> {
  const pool = new Pool(options.origin, { connections: options.connections ?? 64, keepAliveTimeout: 30_000 });
  const maxInFlight = options.maxInFlight ?? Infinity;
  const total = Math.round(options.rate * options.seconds);
  const interval = 1e9 / options.rate;
  const inFlight = new Set<Promise<void>>();
  let sent = 0;
  let dropped = 0;
  const send = (request: LoadRequest) => {
    const started = process.hrtime.bigint();
    const pending = pool
      .request({
        method: 'POST',
        path: request.path,
        headers: { 'content-type': 'application/json', ...request.headers },
        body: request.body,
      })
      .then(async (response) => {
        const body = await response.body.text();
        const contentType = response.headers['content-type'];
        options.onAnswer?.({
          request,
          status: response.statusCode,
          body,
          ms: Number(process.hrtime.bigint() - started) / 1e6,
          contentType: typeof contentType === 'string' ? contentType : undefined,
        });
      })
      .catch((error: unknown) => options.onError?.(request, error))
      .finally(() => inFlight.delete(pending));
    inFlight.add(pending);
  };
  const begin = process.hrtime.bigint();
  let due = 0;
  await new Promise<void>((resolve) => {
    const tick = () => {
      // Send what is due by now: timers fire about every millisecond, so usually one request.
      const dueNow = Math.min(total, Math.floor(Number(process.hrtime.bigint() - begin) / interval) + 1);
      while (due < dueNow) {
        const request = options.next(due);
        due++;
        if (inFlight.size >= maxInFlight) dropped++;
        else {
          send(request);
          sent++;
        }
      }
      if (due < total && options.signal?.aborted !== true) setTimeout(tick, 1);
      else resolve();
    };
    tick();
  });
  const elapsed = Number(process.hrtime.bigint() - begin) / 1e9;
  await Promise.all(inFlight);
  await pool.close();
  return { sent, dropped, rps: Math.round((sent / elapsed) * 10) / 10 };
}
