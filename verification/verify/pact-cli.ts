import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// The official Rust `pact verifier` (shipped inside @pact-foundation/pact-cli's platform
// package), run as a child process: the same verifier pact-python, pact-go and the CLI users
// run, and a process the kit can stop on Ctrl-C, unlike a native call inside this one.

const require = createRequire(import.meta.url);

/** Path of the standalone `pact` binary for this platform. */
export function pactBinary(): string {
  const { standalone } = require('@pact-foundation/pact-cli/src/pact-standalone') as {
    standalone: () => { pactFullPath: string };
  };
  return standalone().pactFullPath;
}

export interface PactCliRun {
  code: number | null;
  /** The signal that ended it, when one did. */
  signal: NodeJS.Signals | null;
  /** Everything the verifier printed (its own log and result lines), for --verbose. */
  output: string;
  /** Its JSON report (`--json`), when it wrote one. */
  json?: string;
}

export interface PactCliOptions {
  args: string[];
  signal?: AbortSignal;
  /** After SIGTERM, how long before SIGKILL. */
  killAfterMs?: number;
}

/** Runs `pact verifier <args> --json <tmp>`; stops the child when `signal` aborts. */
export function runPactCli({ args, signal, killAfterMs = 2_000 }: PactCliOptions): Promise<PactCliRun> {
  const dir = mkdtempSync(join(tmpdir(), 'pact-verifier-'));
  const jsonFile = join(dir, 'result.json');
  return new Promise((resolve, reject) => {
    const start = () =>
      spawn(pactBinary(), ['verifier', ...args, '--json', jsonFile], { stdio: ['ignore', 'pipe', 'pipe'] });
    let child: ReturnType<typeof start>;
    try {
      child = start();
    } catch (error) {
      // No binary for this platform, or a spawn refused outright: nothing ran, nothing is left.
      rmSync(dir, { recursive: true, force: true });
      throw error;
    }
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    let killTimer: NodeJS.Timeout | undefined;
    const stop = () => {
      child.kill('SIGTERM');
      killTimer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
      killTimer.unref();
    };
    signal?.addEventListener('abort', stop, { once: true });
    child.once('error', (error) => {
      signal?.removeEventListener('abort', stop);
      rmSync(dir, { recursive: true, force: true });
      reject(error);
    });
    child.once('close', (code, killedBy) => {
      signal?.removeEventListener('abort', stop);
      clearTimeout(killTimer);
      let json: string | undefined;
      try {
        json = readFileSync(jsonFile, 'utf8');
      } catch {
        json = undefined;
      }
      rmSync(dir, { recursive: true, force: true });
      resolve({ code, signal: killedBy, output, ...(json !== undefined ? { json } : {}) });
    });
  });
}

/** A regex matching exactly this interaction description (for --filter-description). */
export const exactly = (description: string): string => `^${description.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`;
