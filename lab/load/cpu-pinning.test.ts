import { execFileSync, spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { cpuSplit, parseCpuList, pinProcesses } from './cpu-pinning';

const affinityOf = (pid: number) =>
  parseCpuList(
    execFileSync('taskset', ['-p', '-c', String(pid)], { encoding: 'utf8' })
      .split(':')
      .pop()!,
  );

describe('parseCpuList', () => {
  it("reads taskset's list syntax", () => {
    expect(parseCpuList('0')).toEqual([0]);
    expect(parseCpuList('0,1\n')).toEqual([0, 1]);
    expect(parseCpuList(' 0-3,6')).toEqual([0, 1, 2, 3, 6]);
  });
  it('refuses anything else', () => {
    expect(() => parseCpuList('0-')).toThrow(/not a CPU list/);
    expect(() => parseCpuList('all')).toThrow(/not a CPU list/);
  });
});

const split = cpuSplit();
describe.skipIf(typeof split === 'string')(`pinning (${typeof split === 'string' ? split : 'taskset'})`, () => {
  it('gives the proxy the last CPU and the rest the others', () => {
    if (typeof split === 'string') return;
    expect(split.proxy).toHaveLength(1);
    expect([...split.rest, ...split.proxy]).toEqual(split.all);
    expect(split.all).toEqual(affinityOf(process.pid));
  });

  it('pins a process and the children it started, every thread', async () => {
    if (typeof split === 'string') return;
    // A shell with a child of its own: the child must be pinned too.
    const shell = spawn('sh', ['-c', 'sleep 30 & wait'], { stdio: 'ignore' });
    let children: number[] = [];
    try {
      for (const deadline = Date.now() + 5_000; children.length === 0 && Date.now() < deadline;) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        try {
          children = execFileSync('pgrep', ['-P', String(shell.pid)], { encoding: 'utf8' })
            .split('\n')
            .filter(Boolean)
            .map(Number);
        } catch {
          children = [];
        }
      }
      expect(children).toHaveLength(1);
      pinProcesses([shell.pid!], split.proxy);
      expect(affinityOf(shell.pid!)).toEqual(split.proxy);
      expect(affinityOf(children[0])).toEqual(split.proxy);
      pinProcesses([shell.pid!], split.all);
      expect(affinityOf(children[0])).toEqual(split.all);
    } finally {
      for (const pid of children) process.kill(pid, 'SIGKILL');
      shell.kill('SIGKILL');
    }
  });

  it('passes over a process that is gone', () => {
    if (typeof split === 'string') return;
    expect(() => pinProcesses([2 ** 22 + 1], split.all)).not.toThrow();
  });
});
