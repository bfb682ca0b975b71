import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTemporaryDirectory } from '../shared/testing/temporary-directory';
import { packagePath } from '../shared/package-root';
import { bundlePackage } from './build-package';
import {
  bundlesIn,
  compareDependencies,
  HTTP_BUILTINS,
  HTTP_PACKAGES,
  importsOf,
  packageNameOf,
} from './bundle-imports';
import { publishedPackages, readManifest, type PublishedPackage } from './published-packages';

// Dependencies that tell the truth: each published package's bundles, built from its entry point as
// `npm run build` builds them, import exactly the npm packages its manifest declares.

const dir = useTemporaryDirectory('package-dependencies');
const packages = publishedPackages();
const imports = new Map<PublishedPackage['folder'], string[]>();

beforeAll(async () => {
  await Promise.all(
    packages.map(async (pkg) => {
      const outdir = join(dir.path, pkg.folder);
      await bundlePackage(pkg, outdir);
      imports.set(pkg.folder, await importsOf(bundlesIn(outdir)));
    }),
  );
}, 60_000);

describe.each(packages.map((pkg) => [pkg.manifest.name, pkg] as const))('%s', (_name, pkg) => {
  it('imports every declared dependency and declares every package it imports (builtins aside)', () => {
    expect(compareDependencies(pkg.manifest, imports.get(pkg.folder)!)).toEqual({ undeclared: [], unused: [] });
  });

  it('has neither devDependencies nor a private flag (it is published; development tools live at the root)', () => {
    expect(pkg.manifest.devDependencies).toBeUndefined();
    expect(pkg.manifest.private).toBeUndefined();
    expect(pkg.manifest.license).toBe('Apache-2.0');
  });
});

describe('the contract core', () => {
  it('imports no HTTP server or client: neither an npm package nor a Node module of HTTP or sockets', () => {
    const contracts = imports.get('contracts')!;
    expect(contracts.length).toBeGreaterThan(1);
    expect(
      contracts.filter((specifier) =>
        ([...HTTP_PACKAGES, ...HTTP_BUILTINS] as string[]).includes(packageNameOf(specifier)),
      ),
    ).toEqual([]);
  });
});

describe('the check itself', () => {
  it('reads imports from the bundles, deep paths and run-time requires included', () => {
    const toolkit = imports.get('toolkit')!;
    expect(toolkit).toContain('hono');
    expect(toolkit.some((specifier) => specifier.startsWith('@pact-foundation/pact-cli/'))).toBe(true);
    expect(toolkit).toContain('node:fs');
  });

  it('would see an undeclared import and an unused dependency', () => {
    const manifest = { name: 'x', version: '0.0.0', dependencies: { hono: '^4.0.0', pg: '^8.0.0' } };
    expect(compareDependencies(manifest, ['hono/cookie', '@sinclair/typebox/value', 'node:fs'])).toEqual({
      undeclared: ['@sinclair/typebox'],
      unused: ['pg'],
    });
  });
});

describe('versions', () => {
  it('name a dependency with the same range in every package.json of the repository', () => {
    const manifests = [readManifest(packagePath()), ...packages.map((pkg) => pkg.manifest)];
    const ranges = new Map<string, Set<string>>();
    for (const manifest of manifests)
      for (const [name, range] of Object.entries({ ...manifest.devDependencies, ...manifest.dependencies }))
        ranges.set(name, (ranges.get(name) ?? new Set()).add(range));
    const differing = [...ranges]
      .filter(([, set]) => set.size > 1)
      .map(([name, set]) => `${name}: ${[...set].join(' vs ')}`);
    expect(differing).toEqual([]);
    expect(ranges.size).toBeGreaterThan(20);
  });

  it('are one version for the published packages and the workspace (released together; `federated-gateway --version` in a clone says the same)', () => {
    expect(
      new Set([readManifest(packagePath()), ...packages.map((pkg) => pkg.manifest)].map((manifest) => manifest.version))
        .size,
    ).toBe(1);
  });
});
