import { spawn, type ChildProcess } from 'node:child_process';
import { PACKAGE_ROOT } from '../../contracts/package-root';

// A TypeScript entry point of ours as a real child process (node --import tsx), for tests that
// must kill it (SIGKILL mid-order) and benches that must not share its CPU. Resolves once its
// output matches `ready`, with the first capture group (the URL it printed).

export interface TsxProcess {
  child: ChildProcess;
  url: string;
  /** Everything it wrote so far (stdout and stderr), for failure messages. */
  output(): string;
  /** Resolves with the exit code (or signal name) once it has exited. */
  exited: Promise<number | string>;
  /** Kills it with `signal` and waits until it is gone. */
  kill(signal?: NodeJS.Signals): Promise<number | string>;
}

export function startTsxProcess(name: string, args: string[], env: NodeJS.ProcessEnv, ready: RegExp, nodeFlags: string[] = [], timeoutMs = 120_000): Promise<TsxProcess> {
  const child = spawn(process.execPath, [...nodeFlags, '--import', 'tsx', ...args], { cwd: PACKAGE_ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let seen = '';
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${name} did not start within ${timeoutMs} ms:\n${seen}`));
    }, timeoutMs);
    let started = false;
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      const match = started ? null : ready.exec(seen);
      if (match) {
        started = true;
        clearTimeout(timer);
        resolve({
          child,
          url: match[1],
          output: () => seen,
          exited,
          kill(signal = 'SIGTERM') {
            if (child.exitCode === null && child.signalCode === null) child.kill(signal);
            return exited;
          },
        });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      if (!started) reject(new Error(`${name} exited with ${code} before it was ready:\n${seen}`));
    });
  });
}
