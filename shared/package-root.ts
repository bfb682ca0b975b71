import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// Files a package ships (the pact, the default scenario) are found from the package's root,
// so paths hold both in this repository (contracts/…, the workspace root) and in an installed
// package, where the code is bundled under dist/ and the build copied the files beside it.

/** The workspace root and the published packages (packages/*): the files keep their paths in each. */
const PACKAGE_NAMES = new Set(['federated-gateway', '@federated-gateway/toolkit', '@federated-gateway/contracts']);

function findRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (
      existsSync(manifest) &&
      PACKAGE_NAMES.has((JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name ?? '')
    )
      return dir;
    if (dirname(dir) === dir)
      throw new Error(`cannot find the package root (${[...PACKAGE_NAMES].join(', ')}) above ${from}`);
  }
}

export const PACKAGE_ROOT = findRoot(dirname(fileURLToPath(import.meta.url)));

/** The absolute path of a file shipped with the toolkit, e.g. packagePath('contracts', 'pacts'). */
export const packagePath = (...segments: string[]): string => join(PACKAGE_ROOT, ...segments);
