import { chmodSync, cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build, type BuildOptions } from 'esbuild';
import { generateDtsBundle } from 'dts-bundle-generator';
import { packagePath } from '../shared/package-root';
import type { PublishedPackage } from './published-packages';

// A published package from its entry point: ESM and CommonJS bundles of our code with every npm
// package left external (so its `dependencies` are exactly what the bundles import, a test
// holds them together), one bundled type declaration per module system, the command line
// as chunked ESM, and the data files it reads at run time copied from their one home.

export const BUNDLES = { esm: 'index.mjs', cjs: 'index.cjs' } as const;

const COMMON: BuildOptions = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning',
};

// import.meta.url is empty in CommonJS: the files our code finds from its own place (the
// package root, a resolver for the Pact CLI) get the bundle's own URL instead.
const CJS_IMPORT_META_URL = {
  banner: { js: 'const __importMetaUrl = require("node:url").pathToFileURL(__filename).href;' },
  define: { 'import.meta.url': '__importMetaUrl' },
};

/** Both bundles of the entry point into `outdir`; their paths. */
export async function bundleFace(pkg: PublishedPackage, outdir: string): Promise<Record<keyof typeof BUNDLES, string>> {
  const esm = join(outdir, BUNDLES.esm);
  const cjs = join(outdir, BUNDLES.cjs);
  await Promise.all([
    build({ ...COMMON, entryPoints: [pkg.entryPoint], outfile: esm, format: 'esm' }),
    build({ ...COMMON, ...CJS_IMPORT_META_URL, entryPoints: [pkg.entryPoint], outfile: cjs, format: 'cjs' }),
  ]);
  return { esm, cjs };
}

/** The command line: one small entry and a chunk per command, loaded only when run (so --help prints at once). */
async function bundleBin(bin: NonNullable<PublishedPackage['bin']>, outdir: string): Promise<void> {
  await build({
    ...COMMON,
    entryPoints: { [bin.name]: bin.entry },
    outdir,
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunks/[name]-[hash]',
    splitting: true,
    format: 'esm',
    banner: { js: '#!/usr/bin/env node' },
  });
  chmodSync(join(outdir, `${bin.name}.mjs`), 0o755);
}

/**
 * One declaration file of everything each entry point exports, for `import`
 * and for `require`; one TypeScript program for all (the slow part).
 */
function declareTypes(pkgs: PublishedPackage[]): void {
  const entries = pkgs.map((pkg) => ({
    filePath: pkg.entryPoint,
    output: { noBanner: true, exportReferencedTypes: false },
  }));
  const types = generateDtsBundle(entries, { preferredConfigPath: packagePath('tsconfig.json') });
  pkgs.forEach((pkg, i) => {
    writeFileSync(join(pkg.dir, 'dist', 'index.d.mts'), types[i]);
    writeFileSync(join(pkg.dir, 'dist', 'index.d.cts'), types[i]);
  });
}

/**
 * The files of `files` that are not built: copied from the repository at the same path, or from their built-in source.
 */
function copyShippedFiles(pkg: PublishedPackage): void {
  for (const entry of pkg.manifest.files ?? []) {
    if (entry === 'dist/') continue;
    const to = join(pkg.dir, entry);
    rmSync(to, { recursive: true, force: true });
    mkdirSync(join(to, '..'), { recursive: true });
    cpSync(packagePath(pkg.builtIn[entry] ?? entry), to, { recursive: true });
  }
}

/** Every bundle of the package (the entry point in both module systems, the command line) into `outdir`. */
export async function bundlePackage(pkg: PublishedPackage, outdir: string): Promise<void> {
  rmSync(outdir, { recursive: true, force: true });
  await Promise.all([bundleFace(pkg, outdir), pkg.bin && bundleBin(pkg.bin, outdir)]);
}

/**
 * Every package whole; `types: false` leaves out the declarations (the
 * suite's consumer test, which runs JavaScript: never publish such a build).
 */
export async function buildPackages(
  pkgs: PublishedPackage[],
  { types = true }: { types?: boolean } = {},
): Promise<void> {
  for (const pkg of pkgs) copyShippedFiles(pkg);
  await Promise.all(pkgs.map((pkg) => bundlePackage(pkg, join(pkg.dir, 'dist'))));
  if (types) declareTypes(pkgs);
}
