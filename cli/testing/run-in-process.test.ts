import { describe, expect, it } from 'vitest';
import type { Command } from '../command-io';
import { startInProcess } from './run-in-process';

// The helper the CLI tests lean on: a line waited for is seen whenever it is printed, and a
// command that ends without printing it fails the wait with what it did print.

const server: Command = async (_argv, io) => {
  io.stderr('starting\n');
  await new Promise((resolve) => setTimeout(resolve, 5));
  io.stdout('listening on http://127.0.0.1:1234, ready\n');
  await new Promise<void>((resolve) => io.signal.addEventListener('abort', () => resolve(), { once: true }));
  io.stderr(`${String(io.signal.reason)}, closing\n`);
  return 0;
};

describe('startInProcess', () => {
  it('resolves a printed line with its first group, before and after it was printed; output() keeps the order', async () => {
    const run = startInProcess(server, []);
    expect(await run.printed(/listening on (http:\S+?),/)).toBe('http://127.0.0.1:1234');
    expect(await run.printed(/^starting$/m, 'stderr')).toBe('starting');
    run.stop('SIGTERM');
    expect(await run.exit).toBe(0);
    expect(run.output()).toBe('starting\nlistening on http://127.0.0.1:1234, ready\nSIGTERM, closing\n');
  });

  it('rejects a wait the command ended without satisfying, naming the pattern and what it printed', async () => {
    const run = startInProcess(async (_argv, io) => (io.stderr('no such port\n'), 2), []);
    await expect(run.printed(/listening on/)).rejects.toThrow(
      /exited \(2\) before its stdout showed \/listening on\/; it printed:\nno such port/,
    );
    await expect(run.printed(/later/, 'stderr')).rejects.toThrow(/exited \(2\)/);
  });
});
