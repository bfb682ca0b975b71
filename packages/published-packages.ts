import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packagePath } from '../shared/package-root';

// The packages this repository publishes, each a folder of packages/ with its own manifest.
// The manifest is the one home of what a package ships (`files`) and depends on.

export const PUBLISHED_FOLDERS = ['contracts', 'toolkit'] as const;
export type PublishedFolder = (typeof PUBLISHED_FOLDERS)[number];

export interface PackageManifest {
  name: string;
  version: string;
  private?: boolean;
  license?: string;
  files?: string[];
  bin?: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

export interface PublishedPackage {
  folder: PublishedFolder;
  /** Absolute path of packages/<folder>. */
  dir: string;
  manifest: PackageManifest;
  /** The entry point every bundle is built from: packages/<folder>/index.ts. */
  entryPoint: string;
  /** The command-line entry bundled beside the entry point (chunked ESM), if the package has a bin. */
  bin?: { name: string; entry: string };
  /** Where each built-in file of the package comes from in the repository (the rest of `files` keeps its path). */
  builtIn: Record<string, string>;
}

const BIN_ENTRY: Partial<Record<PublishedFolder, string>> = { toolkit: 'cli/bin.ts' };
const CHANGELOG: Record<PublishedFolder, string> = { contracts: 'contracts/CHANGELOG.md', toolkit: 'CHANGELOG.md' };

export const readManifest = (dir: string): PackageManifest =>
  JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as PackageManifest;

export function publishedPackage(folder: PublishedFolder): PublishedPackage {
  const dir = packagePath('packages', folder);
  const manifest = readManifest(dir);
  const binName = Object.keys(manifest.bin ?? {})[0];
  const entry = BIN_ENTRY[folder];
  return {
    folder,
    dir,
    manifest,
    entryPoint: join(dir, 'index.ts'),
    bin: binName !== undefined && entry !== undefined ? { name: binName, entry: packagePath(entry) } : undefined,
    builtIn: { LICENSE: 'LICENSE', 'CHANGELOG.md': CHANGELOG[folder] },
  };
}

export const publishedPackages = (): PublishedPackage[] => PUBLISHED_FOLDERS.map(publishedPackage);
