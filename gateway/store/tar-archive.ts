// Extracts a tar archive of a PGlite data directory (what `dumpDataDir('none')` writes: ustar
// headers, regular files and directories only) into a directory on disk. Plain file I/O, so a
// store image can be restored without starting a PostgreSQL in WebAssembly.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, normalize, sep } from 'node:path';

const BLOCK = 512;

export class TarArchiveError extends Error {
  override name = 'TarArchiveError';
}

function field(header: Uint8Array, offset: number, length: number): string {
  const bytes = header.subarray(offset, offset + length);
  const end = bytes.indexOf(0);
  return new TextDecoder().decode(end === -1 ? bytes : bytes.subarray(0, end));
}

function octal(header: Uint8Array, offset: number, length: number, what: string): number {
  const text = field(header, offset, length).trim();
  const value = text === '' ? 0 : Number.parseInt(text, 8);
  if (!Number.isSafeInteger(value) || value < 0) throw new TarArchiveError(`tar entry has a bad ${what}: '${text}'`);
  return value;
}

// Files written at once: the writes go to libuv's thread pool, and one at a time took ~3× longer.
const PARALLEL_WRITES = 16;

async function writeEntry(target: string, bytes: Uint8Array, mode: number): Promise<void> {
  try {
    await writeFile(target, bytes, { mode });
  } catch (error) {
    // PGlite lists each directory before its files; this covers an archive that does not.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, bytes, { mode });
  }
}

/** Writes every entry of `tar` under `dir`; refuses entries that would land outside it. Returns the file count. */
export async function extractTar(tar: Uint8Array, dir: string): Promise<number> {
  const writing = new Set<Promise<void>>();
  try {
    return await extractEntries(tar, dir, writing);
  } finally {
    // No write may outlive the call, even when it throws (the caller may remove the directory).
    await Promise.allSettled(writing);
  }
}

async function extractEntries(tar: Uint8Array, dir: string, writing: Set<Promise<void>>): Promise<number> {
  let files = 0;
  let failed: unknown;
  const settle = async () => {
    await Promise.all(writing);
    if (failed !== undefined) throw failed;
  };
  await mkdir(dir, { recursive: true });
  for (let offset = 0; offset + BLOCK <= tar.length;) {
    const header = tar.subarray(offset, offset + BLOCK);
    if (header.every((byte) => byte === 0)) {
      await settle();
      return files; // end-of-archive marker
    }
    const prefix = field(header, 345, 155);
    const name = prefix === '' ? field(header, 0, 100) : `${prefix}/${field(header, 0, 100)}`;
    const size = octal(header, 124, 12, 'size');
    const mode = octal(header, 100, 8, 'mode') & 0o777;
    const type = String.fromCharCode(header[156] || 0x30);
    const relative = normalize(name.replace(/^\/+/, ''));
    if (relative === '.' || relative.startsWith(`..${sep}`) || relative === '..')
      throw new TarArchiveError(`tar entry '${name}' is outside the directory`);
    const target = join(dir, relative);
    const body = offset + BLOCK;
    if (body + size > tar.length) throw new TarArchiveError(`tar entry '${name}' is cut short (archive truncated)`);
    if (type === '5') {
      await mkdir(target, { recursive: true, mode: mode || 0o700 });
    } else if (type === '0') {
      const write = writeEntry(target, tar.subarray(body, body + size), mode || 0o600).catch((error: unknown) => {
        failed ??= error;
      });
      writing.add(write);
      void write.finally(() => writing.delete(write));
      if (writing.size >= PARALLEL_WRITES) await Promise.race(writing);
      if (failed !== undefined) await settle();
      files++;
    } else {
      throw new TarArchiveError(
        `tar entry '${name}' has type '${type}': only files and directories are expected in a store image`,
      );
    }
    offset = body + Math.ceil(size / BLOCK) * BLOCK;
  }
  await settle();
  throw new TarArchiveError('tar archive ends without its end-of-archive marker (truncated)');
}
