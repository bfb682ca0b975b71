import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// Files the toolkit ships (the pact, the default scenario) are found from the package's root,
// so paths hold both in this repository (contracts/…) and in the installed CLI, where all
// code is one bundle under dist/.

const PACKAGE_NAME = '@federated-gateway/toolkit';

function findRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === PACKAGE_NAME) return dir;
    if (dirname(dir) === dir) throw new Error(`cannot find the ${PACKAGE_NAME} package above ${from}`);
  }
}

export const PACKAGE_ROOT = findRoot(dirname(fileURLToPath(import.meta.url)));

/** The absolute path of a file shipped with the toolkit, e.g. packagePath('contracts', 'pacts'). */
export const packagePath = (...segments: string[]): string => join(PACKAGE_ROOT, ...segments);
