import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { round } from './latency-stats';

// Reads what lab/load/async-counts.mjs wrote for one process when it exited, per request.

export interface PerRequestCounts {
  requests: number;
  promises: number;
  /** process.nextTick callbacks. */
  ticks: number;
  timers: number;
  immediates: number;
  minor_gcs_per_1k_requests: number;
  major_gcs_per_1k_requests: number;
  /** KB the heap allocated per request (steady window only). */
  allocated_kb?: number;
}

interface Window {
  requests: number;
  resources: Record<string, number>;
  gc: { minor: number; major: number };
  allocatedBytes?: number;
}

interface Written extends Window {
  /** From request `from` on: the steady state, without start-up and warm-up. */
  steady?: Window & { from: number };
}

export interface CountsOfProcess {
  /** Over the process's whole life, start-up included. */
  whole: PerRequestCounts;
  /** From the ASYNC_COUNTS_FROM-th request on (undefined when it received fewer). */
  steady?: PerRequestCounts & { from: number };
}

/**
 * The counts of process `pid` per request it received; undefined if it wrote none (still running, or killed outright).
 */
export function perRequestCounts(dir: string, pid: number): CountsOfProcess | undefined {
  let written: Written;
  try {
    written = JSON.parse(readFileSync(join(dir, `${pid}.json`), 'utf8')) as Written;
  } catch {
    return undefined;
  }
  const steady = written.steady;
  return {
    whole: perRequest(written),
    steady: steady === undefined ? undefined : { from: steady.from, ...perRequest(steady) },
  };
}

function perRequest(window: Window): PerRequestCounts {
  const per = (n: number | undefined, scale = 1) => round(((n ?? 0) * scale) / Math.max(1, window.requests), 2);
  return {
    requests: window.requests,
    promises: per(window.resources.PROMISE),
    ticks: per(window.resources.TickObject),
    timers: per(window.resources.Timeout),
    immediates: per(window.resources.Immediate),
    minor_gcs_per_1k_requests: per(window.gc.minor, 1000),
    major_gcs_per_1k_requests: per(window.gc.major, 1000),
    ...(window.allocatedBytes === undefined ? {} : { allocated_kb: per(window.allocatedBytes / 1024) }),
  };
}
