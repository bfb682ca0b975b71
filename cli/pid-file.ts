import { readFileSync, rmSync, writeFileSync } from 'node:fs';

// `--pid-file`: this process's own id, for scripts that start it in the background with
// `npx …` or `npm run …`. There `$!` is npm's pid, and a signal sent to npm reaches the sh
// between us and dies there; `kill -INT "$(cat file)"` reaches this process, which prints its
// report and exits by its findings (npm passes that exit code on).

/** Writes our pid to `file` (when given); the returned function removes it. */
export function writePidFile(file: string | undefined): () => void {
  if (file === undefined) return () => {};
  const content = `${process.pid}\n`;
  writeFileSync(file, content);
  return () => {
    // Only the file we wrote, still ours: never a device (/dev/null) or another run's file.
    let now: string | undefined;
    try {
      now = readFileSync(file, 'utf8');
    } catch {
      return;
    }
    if (now === content) rmSync(file, { force: true });
  };
}
