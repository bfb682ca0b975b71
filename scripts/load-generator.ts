import { readFile } from 'node:fs/promises';
import autocannon from 'autocannon';
import { Pool } from 'undici';

// Load for the benchmarks and the soak: closed loop (autocannon, N connections back to back:
// saturation) and open loop (requests evenly spaced at a rate, whatever the answers), with
// per-response latencies, plus what a process costs (CPU, RSS) read from /proc.

export interface Run {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  non2xx: number;
  errors: number;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export const round = (n: number, digits = 3): number => Math.round(n * 10 ** digits) / 10 ** digits;

export interface LoadRequest {
  path: string;
  body: string;
  headers?: Record<string, string>;
}

/** One autocannon run over `requests` in turn; latencies are collected per response (autocannon's histogram keeps whole ms only). */
export function closedLoop(
  origin: string,
  requests: LoadRequest[],
  headers: Record<string, string>,
  options: { connections: number; duration?: number; amount?: number; overallRate?: number },
): Promise<Run> {
  const samples: number[] = [];
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: origin,
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        requests: requests.map((r) => ({ method: 'POST', path: r.path, body: r.body, ...(r.headers ? { headers: { 'content-type': 'application/json', ...headers, ...r.headers } } : {}) })),
        ...options,
      },
      (error, result) => {
        if (error) return reject(error);
        samples.sort((a, b) => a - b);
        resolve({
          rps: round(result.requests.total / (result.duration || 1), 1),
          p50: round(percentile(samples, 50)),
          p99: round(percentile(samples, 99)),
          requests: result.requests.total,
          non2xx: result.non2xx,
          errors: result.errors + result.timeouts,
        });
      },
    );
    instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
      if (statusCode >= 200 && statusCode < 300) samples.push(responseTime);
    });
  });
}

export interface PacedRun extends Run {
  /** Answers by HTTP status ('error' for no answer), per label the request was given. */
  statuses: Record<string, Record<string, number>>;
}

/**
 * Open-loop load at a fixed rate: requests leave evenly spaced whether or not earlier ones have
 * answered. autocannon's overallRate is not that: each connection sends back to back until its
 * quota for the second is used up, so its "1,000 req/s" is a burst of saturation at the start
 * of every second, and the latency it shows is mostly queueing behind the burst.
 * `next(i)` gives the i-th request and a label its answers are counted under.
 */
export async function paced(origin: string, next: (i: number) => LoadRequest & { label?: string }, rate: number, seconds: number, signal?: AbortSignal): Promise<PacedRun> {
  const pool = new Pool(origin, { connections: 64, keepAliveTimeout: 30_000 });
  const samples: number[] = [];
  const statuses: Record<string, Record<string, number>> = {};
  const count = (label: string, status: string) => {
    const byStatus = (statuses[label] ??= {});
    byStatus[status] = (byStatus[status] ?? 0) + 1;
  };
  let non2xx = 0;
  let errors = 0;
  const total = Math.round(rate * seconds);
  const interval = 1e9 / rate;
  const inFlight = new Set<Promise<void>>();
  const send = (i: number) => {
    const { path, body, headers, label = 'all' } = next(i);
    const started = process.hrtime.bigint();
    const request = pool
      .request({ method: 'POST', path, headers: { 'content-type': 'application/json', ...headers }, body })
      .then(async (response) => {
        await response.body.text();
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        count(label, String(response.statusCode));
        if (response.statusCode >= 200 && response.statusCode < 300) samples.push(ms);
        else non2xx++;
      })
      .catch(() => {
        count(label, 'error');
        errors++;
      })
      .finally(() => inFlight.delete(request));
    inFlight.add(request);
  };
  const begin = process.hrtime.bigint();
  let sent = 0;
  await new Promise<void>((resolve) => {
    const tick = () => {
      // Send what is due by now: timers fire about every millisecond, so usually one request.
      const due = Math.min(total, Math.floor(Number(process.hrtime.bigint() - begin) / interval) + 1);
      while (sent < due) send(sent++);
      if (sent < total && signal?.aborted !== true) setTimeout(tick, 1);
      else resolve();
    };
    tick();
  });
  const elapsed = Number(process.hrtime.bigint() - begin) / 1e9;
  await Promise.all(inFlight);
  await pool.close();
  samples.sort((a, b) => a - b);
  return { rps: round(sent / elapsed, 1), p50: round(percentile(samples, 50)), p99: round(percentile(samples, 99)), requests: sent, non2xx, errors, statuses };
}

/**
 * Closed loop over a sequence: `connections` workers each send the next request as soon as
 * their last one answered, for `seconds`. Unlike autocannon's fixed list, every request can be
 * new (an order with a PO number of its own), so replays do not flatter the figure.
 */
export async function saturate(origin: string, next: (i: number) => LoadRequest, connections: number, seconds: number): Promise<Run> {
  const pool = new Pool(origin, { connections, keepAliveTimeout: 30_000 });
  const samples: number[] = [];
  let non2xx = 0;
  let errors = 0;
  let sent = 0;
  const begin = process.hrtime.bigint();
  const end = Date.now() + seconds * 1000;
  const worker = async () => {
    while (Date.now() < end) {
      const { path, body, headers } = next(sent++);
      const started = process.hrtime.bigint();
      try {
        const response = await pool.request({ method: 'POST', path, headers: { 'content-type': 'application/json', ...headers }, body });
        await response.body.text();
        if (response.statusCode >= 200 && response.statusCode < 300) samples.push(Number(process.hrtime.bigint() - started) / 1e6);
        else non2xx++;
      } catch {
        errors++;
      }
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  const elapsed = Number(process.hrtime.bigint() - begin) / 1e9;
  await pool.close();
  samples.sort((a, b) => a - b);
  return { rps: round(sent / elapsed, 1), p50: round(percentile(samples, 50)), p99: round(percentile(samples, 99)), requests: sent, non2xx, errors };
}

/** CPU time (user + system) a process has used so far, in µs, from /proc (Linux). */
export async function cpuMicros(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of /proc/<pid>/stat, in clock ticks (100 per second here).
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

/** Resident set size of a process in MB, from /proc (Linux). */
export async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? NaN);
  return Math.round((kb / 1024) * 10) / 10;
}
