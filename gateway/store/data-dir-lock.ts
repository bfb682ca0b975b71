// PGlite has no inter-process locking: a second process opening the same data directory
// (say `npm run keys` while `npm start` runs) would corrupt it. A lock file holding the
// owner's pid turns that into a clear error; a lock left by a dead process is taken over.
import { open, readFile, rm } from 'node:fs/promises';

export interface DataDirLock {
  release(): Promise<void>;
}

export class DataDirInUseError extends Error {
  constructor(dataDir: string, pid: number) {
    super(
      `PGlite data directory ${dataDir} is in use by process ${pid}. PGlite allows one process ` +
        `per directory: stop that process, point GATEWAY_DATA_DIR elsewhere, or use a PostgreSQL ` +
        `server (DATABASE_URL) to share one store between processes.`,
    );
    this.name = 'DataDirInUseError';
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export async function acquireDataDirLock(dataDir: string): Promise<DataDirLock> {
  // Beside the directory, not in it: PGlite owns the directory's contents.
  const file = `${dataDir.replace(/\/+$/, '')}.lock`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(file, 'wx');
      await handle.writeFile(String(process.pid));
      await handle.close();
      let released = false;
      return {
        async release() {
          if (released) return;
          released = true;
          await rm(file, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = Number.parseInt(await readFile(file, 'utf8').catch(() => ''), 10);
      if (Number.isInteger(pid) && pid !== process.pid && isAlive(pid)) throw new DataDirInUseError(dataDir, pid);
      if (pid === process.pid) throw new DataDirInUseError(dataDir, pid);
      await rm(file, { force: true }); // stale: its owner is gone
    }
  }
  throw new Error(`could not lock PGlite data directory ${dataDir}`);
}
