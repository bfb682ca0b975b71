import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, onTestFinished } from 'vitest';

// A test that needs a directory makes its own under the OS temporary directory and removes it
// when it ends, passed or failed: a run of the suite leaves nothing behind in /tmp.

const remove = (path: string) => rmSync(path, { recursive: true, force: true });

/** A fresh directory `<tmp>/<prefix>-XXXXXX` for the running test, removed when it finishes. */
export function temporaryDirectory(prefix: string): string {
  const path = mkdtempSync(join(tmpdir(), `${prefix}-`));
  onTestFinished(() => remove(path));
  return path;
}

/** The directory of `useTemporaryDirectory`: `path` is set once the suite's tests start. */
export interface TemporaryDirectory {
  path: string;
}

/**
 * One directory for a test file (or a describe block): made before its tests, removed after
 * the last. Called where hooks are registered; made in beforeAll, so a suite that is skipped
 * makes none. Register it before what writes into it: hooks after the tests run in reverse.
 */
export function useTemporaryDirectory(prefix: string): TemporaryDirectory {
  const directory: TemporaryDirectory = { path: '' };
  beforeAll(() => {
    directory.path = mkdtempSync(join(tmpdir(), `${prefix}-`));
  });
  afterAll(() => {
    if (directory.path !== '') remove(directory.path);
  });
  return directory;
}
