import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { packagePath } from '../shared/package-root';
import {
  bundlesIn,
  compareDependencies,
  HTTP_BUILTINS,
  HTTP_PACKAGES,
  importsOf,
  packageNameOf,
} from '../packages/bundle-imports';
import { publishedPackages, type PublishedPackage } from '../packages/published-packages';

// npm run release -- --dry-run: what a release would publish, checked as a registry user would
// meet it. Each package is packed (its prepack builds it), its bundles' imports compared with its
// dependencies, its declarations' imports too, then publint and Are the Types Wrong run on the
// tarball. Publishing itself is `npm publish -w packages/<name>` after a tag, never from here.

const USAGE = `Usage: npm run release -- --dry-run

Packs every published package (${publishedPackages()
  .map((p) => p.manifest.name)
  .join(', ')}) into a temporary directory,
checks each (dependencies against its bundles' imports both ways, no HTTP server in the contract
core, publint, @arethetypeswrong/cli) and prints per package: name, version, tarball size,
unpacked size, file count and dependencies.

Exit 0 when every check passes, 1 when one fails, 2 on bad usage. Nothing is published: after
a tag, publish with npm publish -w packages/<name>.`;

const PUBLISH_HOW =
  'this script publishes nothing: release by tagging (git tag v<version>), then npm publish -w packages/<name> for each package';

interface Packed {
  name: string;
  version: string;
  filename: string;
  size: number;
  unpackedSize: number;
  entryCount: number;
}

const exec = (command: string, args: string[]) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(command, args, { cwd: packagePath(), maxBuffer: 32 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout, stderr }),
    );
  });

const bin = (name: string) => packagePath('node_modules', '.bin', name);
const kB = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;

// Bare specifiers a declaration file imports: in from-clauses, in import() calls and in
// reference-types directives.
const DECLARATION_IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|<reference\s+types=)["']([^"'./][^"']*)["']/g;

/** What is wrong with a built package's dependencies (nothing: an empty list). */
async function dependencyProblems(pkg: PublishedPackage): Promise<string[]> {
  const dist = join(pkg.dir, 'dist');
  const imports = await importsOf(bundlesIn(dist));
  const { undeclared, unused } = compareDependencies(pkg.manifest, imports);
  const problems = [
    ...undeclared.map((name) => `imports ${name}, which is not in its dependencies`),
    ...unused.map((name) => `depends on ${name}, which none of its bundles imports`),
  ];
  const declared = new Set(Object.keys(pkg.manifest.dependencies ?? {}));
  for (const file of ['index.d.mts', 'index.d.cts'])
    for (const [, specifier] of readFileSync(join(dist, file), 'utf8').matchAll(DECLARATION_IMPORT))
      if (!specifier.startsWith('node:') && specifier !== 'node' && !declared.has(packageNameOf(specifier)))
        problems.push(`its types (${file}) import ${specifier}, which a user does not install`);
  if (pkg.folder === 'contracts')
    for (const specifier of imports)
      if (([...HTTP_PACKAGES, ...HTTP_BUILTINS] as string[]).includes(packageNameOf(specifier)))
        problems.push(`the contract core imports ${specifier}`);
  return [...new Set(problems)];
}

async function toolProblems(label: string, command: string, args: string[]): Promise<string[]> {
  const result = await exec(command, args);
  return result.code === 0 ? [] : [`${label} failed:\n${(result.stdout + result.stderr).trim()}`];
}

async function main(argv: string[]): Promise<number> {
  let values: { 'dry-run'?: boolean; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { 'dry-run': { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
    }));
  } catch (error) {
    process.stderr.write(`release: ${(error as Error).message}\n\n${USAGE}\n`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (!values['dry-run']) {
    process.stderr.write(`release: give --dry-run; ${PUBLISH_HOW}\n`);
    return 2;
  }

  const packages = publishedPackages();
  const into = mkdtempSync(join(tmpdir(), 'release-'));
  try {
    process.stderr.write(`release: packing ${packages.map((p) => p.manifest.name).join(', ')} (prepack builds each)\n`);
    const workspaces = packages.flatMap((p) => ['-w', `packages/${p.folder}`]);
    const packing = await exec('npm', ['pack', ...workspaces, '--pack-destination', into, '--json']);
    if (packing.code !== 0) {
      process.stderr.write(`release: npm pack failed\n${packing.stderr}\n`);
      return 1;
    }
    const packed = JSON.parse(packing.stdout) as Packed[];
    let failed = false;
    for (const pkg of packages) {
      const tarball = packed.find((p) => p.name === pkg.manifest.name);
      if (tarball === undefined) throw new Error(`npm pack did not pack ${pkg.manifest.name}`);
      const file = join(into, tarball.filename);
      process.stderr.write(`release: checking ${pkg.manifest.name} (dependencies, publint, attw)\n`);
      const problems = [
        ...(await dependencyProblems(pkg)),
        ...(await toolProblems('publint', bin('publint'), ['run', file, '--strict'])),
        ...(await toolProblems('attw', bin('attw'), [file, '--format', 'ascii', '--no-color', '--no-emoji'])),
      ];
      const dependencies = Object.entries(pkg.manifest.dependencies ?? {}).map(([name, range]) => `${name}@${range}`);
      process.stdout.write(
        [
          `${tarball.name}@${tarball.version}${problems.length === 0 ? '' : '  NOT READY'}`,
          `  tarball ${kB(tarball.size)}, unpacked ${kB(tarball.unpackedSize)}, ${tarball.entryCount} files`,
          `  dependencies (${dependencies.length}): ${dependencies.join(', ') || 'none'}`,
          ...problems.map((problem) => `  problem: ${problem.replaceAll('\n', '\n    ')}`),
          '',
        ].join('\n'),
      );
      failed ||= problems.length > 0;
    }
    process.stdout.write(failed ? 'Not ready: fix the problems above.\n' : `Ready: ${PUBLISH_HOW}.\n`);
    return failed ? 1 : 0;
  } finally {
    rmSync(into, { recursive: true, force: true });
  }
}

process.exitCode = await main(process.argv.slice(2));
