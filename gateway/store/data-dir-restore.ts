// A PGlite data directory appears whole or not at all: a missing one is restored from the store
// image into a sibling `<dir>.partial-<pid>` and renamed into place, so a first start killed
// half-way leaves only a partial directory, removed and redone by the next start. A directory
// without PG_VERSION (made by something else, or by an older version killed mid-initdb) is
// moved aside to `<dir>.incomplete-<time>`, never deleted, and a fresh one restored.
// Call it holding the data directory's lock (data-dir-lock.ts): it assumes no other preparer.
import { readdir, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { extractTar } from './tar-archive';

export type DataDirPreparation = 'existing' | 'restored';

export interface PrepareDataDirOptions {
  /** The store image's tar (store-image.ts), asked for only when a directory is restored. */
  image: () => Promise<Uint8Array>;
  log?: (line: string) => void;
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

export async function prepareDataDir(dataDir: string, options: PrepareDataDirOptions): Promise<DataDirPreparation> {
  if (await exists(join(dataDir, 'PG_VERSION'))) return 'existing';
  const log = options.log ?? ((line: string) => console.error(line));
  const parent = dirname(dataDir);
  const name = basename(dataDir);
  // Leftovers of a start that died while restoring: ours to remove, since we hold the lock.
  for (const entry of await readdir(parent)) {
    if (entry.startsWith(`${name}.partial-`)) {
      log(`store: removing ${join(parent, entry)}, left by an interrupted first start`);
      await rm(join(parent, entry), { recursive: true, force: true });
    }
  }
  if (await exists(dataDir)) {
    if ((await readdir(dataDir)).length === 0) {
      await rm(dataDir, { recursive: true });
    } else {
      const aside = `${dataDir}.incomplete-${new Date().toISOString().replace(/[:.]/g, '-')}`;
      log(
        `store: ${dataDir} is not a complete data directory (no PG_VERSION); moved to ${aside}, starting a fresh one`,
      );
      await rename(dataDir, aside);
    }
  }
  const partial = join(parent, `${name}.partial-${process.pid}`);
  await extractTar(await options.image(), partial);
  await rename(partial, dataDir);
  return 'restored';
}
