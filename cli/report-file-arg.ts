import { accessSync, constants, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UsageError } from './command-line';

// A report file named on the command line is checked before the run starts: a run of minutes
// must not end in a crash because its folder was mistyped.

export function reportFileArg(flag: string, file: string): string {
  const folder = dirname(resolve(file));
  let isFolder = false;
  try {
    isFolder = statSync(folder).isDirectory();
  } catch {
    /* reported below */
  }
  if (!isFolder) throw new UsageError(`${flag} ${file}: the folder ${folder} does not exist`);
  try {
    accessSync(folder, constants.W_OK);
  } catch {
    throw new UsageError(`${flag} ${file}: the folder ${folder} is not writable`);
  }
  let isDirectory = false;
  try {
    isDirectory = statSync(file).isDirectory();
  } catch {
    /* not there yet: it will be written */
  }
  if (isDirectory) throw new UsageError(`${flag} ${file} is a folder; name a file`);
  return file;
}
