import { execFileSync } from 'node:child_process';
import { platform } from 'node:os';

// CPU pinning for npm run -w lab bench (Linux, taskset from util-linux): the proxy under test (the
// gateway or the bare proxy, loaded one at a time) on a CPU of its own, the load generator,
// the mock seller and the store on the others. Unpinned, five busy processes share two CPUs
// and the figures measure the scheduler as much as the proxy: a proxy waiting for a CPU while
// the load generator runs shows as latency it did not add (at 1,000 req/s on PostgreSQL, p99
// +15.5 ms over the bare proxy unpinned, +2.7 ms pinned, in the same session).

export interface CpuSplit {
  /** For the proxy under test. */
  proxy: number[];
  /** For the load generator, the mock seller and the store. */
  rest: number[];
  all: number[];
}

/** CPU ids in taskset's list syntax ("0-3,6") as numbers. */
export function parseCpuList(list: string): number[] {
  const cpus: number[] = [];
  for (const part of list.trim().split(',')) {
    const match = /^(\d+)(?:-(\d+))?$/.exec(part.trim());
    if (match === null) throw new Error(`not a CPU list: '${list}'`);
    const from = Number(match[1]);
    const to = match[2] === undefined ? from : Number(match[2]);
    for (let cpu = from; cpu <= to; cpu++) cpus.push(cpu);
  }
  return cpus;
}

/** The CPUs this process may run on, or why pinning cannot be done here. */
export function cpuSplit(): CpuSplit | string {
  if (platform() !== 'linux') return 'not on Linux';
  let output: string;
  try {
    output = execFileSync('taskset', ['-p', '-c', String(process.pid)], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
  } catch {
    return 'taskset (util-linux) is not on the PATH';
  }
  const all = parseCpuList(output.slice(output.lastIndexOf(':') + 1));
  if (all.length < 2) return `only ${all.length} CPU to run on`;
  return { proxy: all.slice(-1), rest: all.slice(0, -1), all };
}

/** The pids pgrep finds with these arguments; none when it finds none (pgrep then exits 1) or is missing. */
function pgrep(args: string[]): number[] {
  try {
    return execFileSync('pgrep', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
      .split('\n')
      .filter((line) => line !== '')
      .map(Number);
  } catch {
    return [];
  }
}

/** Pins each process, every thread of it and its descendants, to `cpus`; what they start later inherits it. */
export function pinProcesses(pids: number[], cpus: number[]): void {
  const list = cpus.join(',');
  for (const pid of pids) {
    try {
      execFileSync('taskset', ['-a', '-p', '-c', list, String(pid)], { stdio: 'ignore' });
    } catch {
      continue; // gone meanwhile
    }
    pinProcesses(pgrep(['-P', String(pid)]), cpus);
  }
}

/** The postmaster of the PostgreSQL listening on `port` (started by pg_ctl, so not our descendant). */
export function postgresOnPort(port: number): number[] {
  return pgrep(['-f', `postgres .*-p ${port} `]);
}
