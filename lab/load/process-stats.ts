import { readFile } from 'node:fs/promises';

// What a process costs, read from /proc (Linux): for benches that measure the gateway from
// outside its process.

/** CPU time (user + system) a process has used so far, in µs. */
export async function cpuMicros(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of /proc/<pid>/stat, in clock ticks (100 per second here).
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

/** Resident set size in MB, one decimal. */
export async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? NaN);
  return Math.round((kb / 1024) * 10) / 10;
}
