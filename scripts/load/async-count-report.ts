import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { round } from './latency-stats';

// Reads what scripts/load/async-counts.mjs wrote for one process when it exited, per request.

export interface PerRequestCounts {
  requests: number;
  promises: number;
  /** process.nextTick callbacks. */
  ticks: number;
  timers: number;
  immediates: number;
  minor_gcs_per_1k_requests: number;
  major_gcs_per_1k_requests: number;
}

interface Written {
  requests: number;
  resources: Record<string, number>;
  gc: { minor: number; major: number };
}

/** The counts of process `pid` per request it received; undefined if it wrote none (still running, or killed outright). */
export function perRequestCounts(dir: string, pid: number): PerRequestCounts | undefined {
  let written: Written;
  try {
    written = JSON.parse(readFileSync(join(dir, `${pid}.json`), 'utf8')) as Written;
  } catch {
    return undefined;
  }
  const per = (n: number | undefined, scale = 1) => round(((n ?? 0) * scale) / Math.max(1, written.requests), 2);
  return {
    requests: written.requests,
    promises: per(written.resources.PROMISE),
    ticks: per(written.resources.TickObject),
    timers: per(written.resources.Timeout),
    immediates: per(written.resources.Immediate),
    minor_gcs_per_1k_requests: per(written.gc.minor, 1000),
    major_gcs_per_1k_requests: per(written.gc.major, 1000),
  };
}
