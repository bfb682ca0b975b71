import { readFileSync } from 'node:fs';

// Who started us, up to the user's shell: under `npx …` or `npm run …` the chain is
// npm → sh -c → (tsx →) this process. A signal sent to npm (`kill %1` in a script) reaches
// sh, which dies without passing it on; we are not reparented (our parent still lives), so
// watching process.ppid alone never fires and the process runs on as an orphan. Linux /proc
// only; elsewhere the chain is just our parent.

/** A launcher between the user's shell and us: npm/npx (their process titles), the sh they run, node (tsx's CLI). */
const LAUNCHER = /^(sh|dash|node|npm( .*)?|npx( .*)?)$/;

function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // pid (comm) state ppid …; comm may hold spaces and parentheses: read after the last ')'.
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

function commandOf(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return undefined;
  }
}

/** [our parent, its parent, …] while each is a launcher, up to and including npm/npx. */
export function launchChain(parent = process.ppid): number[] {
  const chain = [parent];
  for (let pid = parent; chain.length < 8;) {
    const command = commandOf(pid);
    if (command === undefined || !LAUNCHER.test(command) || /^np[mx]\b/.test(command)) break;
    const next = parentOf(pid);
    if (next === undefined || next <= 1) break;
    chain.push(next);
    pid = next;
  }
  return chain;
}

/**
 * Whether the chain recorded at start is broken: a launcher gone, or one reparented (its
 * parent died). `ppid` is ours now.
 */
export function chainBroken(chain: readonly number[], ppid = process.ppid): boolean {
  if (ppid !== chain[0]) return true;
  for (let i = 1; i < chain.length; i++) {
    const parent = parentOf(chain[i - 1]);
    // No /proc entry: gone (or not Linux, where only our own ppid is watched).
    if (parent === undefined) return process.platform === 'linux';
    if (parent !== chain[i]) return true;
  }
  return false;
}
