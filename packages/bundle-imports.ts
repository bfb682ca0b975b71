import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { PackageManifest } from './published-packages';

// What a built package really needs from npm: the packages its bundles import, read back from
// the output (esbuild parses each bundle and lists what stays external), plus the modules our
// code resolves at run time through createRequire (the Pact CLI's binary), which no import
// statement names. Node's builtins are not dependencies.

const BUILTINS = new Set(builtinModules);
const isBuiltin = (specifier: string) => specifier.startsWith('node:') || BUILTINS.has(specifier.split('/')[0]);

/** `@scope/name/deep/path` → `@scope/name`, `name/deep` → `name`. */
export const packageNameOf = (specifier: string): string =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

// A call of a require made with createRequire (esbuild renames it require2, …) on a string literal.
const CREATED_REQUIRE = /\brequire\d*\(\s*"([^"./][^"]*)"\s*\)/g;

/** The bundles of a built dist/ folder (chunks included). */
export function bundlesIn(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.(mjs|cjs|js)$/.test(file))
    .map((file) => join(dir, file));
}

/** Every specifier the bundles import or require, builtins included, sorted. */
export async function importsOf(bundles: string[]): Promise<string[]> {
  const found = new Set<string>();
  const parsed = await build({
    entryPoints: bundles,
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    packages: 'external',
    logLevel: 'silent',
    outdir: '/',
    entryNames: '[dir]/[name]-[hash]',
  });
  for (const input of Object.values(parsed.metafile.inputs))
    for (const record of input.imports) if (record.external && !record.path.startsWith('.')) found.add(record.path);
  for (const bundle of bundles)
    for (const match of readFileSync(bundle, 'utf8').matchAll(CREATED_REQUIRE)) found.add(match[1]);
  return [...found].sort();
}

/** The npm packages among the imports (builtins left out). */
export const bareImports = (imports: string[]): string[] => imports.filter((specifier) => !isBuiltin(specifier));

export interface DependencyMismatch {
  /** Imported by a bundle, missing from `dependencies`: an install that breaks at run time. */
  undeclared: string[];
  /** In `dependencies`, imported by no bundle: weight every user installs for nothing. */
  unused: string[];
}

export function compareDependencies(manifest: PackageManifest, imports: string[]): DependencyMismatch {
  const imported = new Set(bareImports(imports).map(packageNameOf));
  const declared = new Set(Object.keys(manifest.dependencies ?? {}));
  return {
    undeclared: [...imported].filter((name) => !declared.has(name)).sort(),
    unused: [...declared].filter((name) => !imported.has(name)).sort(),
  };
}

/** The npm packages that serve HTTP (or speak it to the network): none may be in the contract core. */
export const HTTP_PACKAGES = ['hono', '@hono/node-server', 'undici'] as const;
export const HTTP_BUILTINS = [
  'node:http',
  'node:https',
  'node:http2',
  'node:net',
  'http',
  'https',
  'http2',
  'net',
] as const;
