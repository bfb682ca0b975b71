import { spawn } from 'node:child_process';
import { packagePath } from '../../shared/package-root';
import type { CertificationOutcome, CertificationRunner } from '../../gateway/certification/certification-types';

// Each certification in a child process of its own (run-certification.ts): the Pact verifier,
// the kit's proxy and the exploration's and load's traffic never share an event loop with the
// process that claimed the job (npm start's gateway, or a worker running several at once).
// The spec (with the seller's credentials) goes on stdin, never on the command line; the
// outcome comes back as the last line of stdout. Aborting the signal sends SIGTERM: the run
// stops within about a second. The child is its own process group, so a Ctrl-C at the
// terminal reaches only the worker, which stops its children itself and releases their jobs.

const RUNNER = packagePath('scripts', 'certification', 'run-certification.ts');
const KILL_AFTER_MS = 10_000;

export function childProcessRunner(options: { log?: (line: string) => void } = {}): CertificationRunner {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  return (spec, signal) =>
    new Promise<CertificationOutcome>((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', RUNNER], {
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: true,
        env: process.env,
      });
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        for (const line of chunk.split('\n')) if (line.trim() !== '') log(line);
      });
      let force: NodeJS.Timeout | undefined;
      const stop = () => {
        child.kill('SIGTERM');
        force = setTimeout(() => child.kill('SIGKILL'), KILL_AFTER_MS);
        force.unref();
      };
      signal.addEventListener('abort', stop, { once: true });
      child.once('error', (error) =>
        resolve({ kind: 'error', message: `cannot start the certification: ${error.message}` }),
      );
      child.once('close', (code, killedBy) => {
        signal.removeEventListener('abort', stop);
        clearTimeout(force);
        const last = out.trim().split('\n').at(-1) ?? '';
        try {
          resolve(JSON.parse(last) as CertificationOutcome);
        } catch {
          resolve({
            kind: 'error',
            message: `the certification process ended (${killedBy ?? `exit ${code}`}) without an outcome`,
          });
        }
      });
      child.stdin.end(JSON.stringify(spec));
    });
}
