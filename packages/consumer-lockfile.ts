import { readFileSync } from 'node:fs';
import { packagePath } from '../shared/package-root';
import type { PublishedPackage } from './published-packages';

// A lockfile for an empty project that installs the packed packages, cut from the
// workspace's own: the packages' dependencies at the versions (and integrity) the workspace
// installed, so `npm ci --offline` finds every tarball in the npm cache that the workspace's
// `npm install` filled. Resolving a range offline needs the registry's package documents,
// which an install from a lockfile never fetches: on a machine with an empty cache that
// failed with ENOTCACHED.

interface LockEntry {
  version?: string;
  resolved?: string;
  link?: boolean;
  dev?: boolean;
  devOptional?: boolean;
  peer?: boolean;
  optional?: boolean;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  [key: string]: unknown;
}

export interface Lockfile {
  name?: string;
  lockfileVersion: number;
  requires?: boolean;
  packages: Record<string, LockEntry>;
}

/** A packed package to install: its manifest and the tarball's path relative to the project. */
export interface PackedPackage {
  pkg: PublishedPackage;
  tarball: string;
}

/** The nearest `node_modules/<name>` above `from` in the lockfile's tree, as Node resolves it. */
function resolveIn(packages: Lockfile['packages'], from: string, name: string): string | undefined {
  for (let at = from; ;) {
    const candidate = at === '' ? `node_modules/${name}` : `${at}/node_modules/${name}`;
    if (packages[candidate] !== undefined) return candidate;
    if (at === '') return undefined;
    const parent = at.lastIndexOf('/node_modules/');
    at = parent === -1 ? '' : at.slice(0, parent);
  }
}

/** The consumer project's `package.json` dependencies and its `package-lock.json`. */
export function consumerLockfile(
  name: string,
  packed: PackedPackage[],
  root: Lockfile = JSON.parse(readFileSync(packagePath('package-lock.json'), 'utf8')) as Lockfile,
): { dependencies: Record<string, string>; lockfile: Lockfile } {
  const packages: Lockfile['packages'] = {};
  const dependencies = Object.fromEntries(packed.map(({ pkg, tarball }) => [pkg.manifest.name, `file:${tarball}`]));
  packages[''] = { name, dependencies };

  // Each published package sits at packages/<dir> in the workspace and at node_modules/<name> here.
  const moves = packed.map(({ pkg }) => ({ from: `packages/${pkg.folder}`, to: `node_modules/${pkg.manifest.name}` }));
  const moved = (path: string) => {
    const move = moves.find((m) => path === m.from || path.startsWith(`${m.from}/`));
    return move === undefined ? path : move.to + path.slice(move.from.length);
  };

  const queue: string[] = [];
  for (const { pkg, tarball } of packed) {
    const entry = root.packages[`packages/${pkg.folder}`];
    if (entry === undefined) throw new Error(`package-lock.json has no packages/${pkg.folder}`);
    const { name: _name, ...rest } = entry;
    packages[`node_modules/${pkg.manifest.name}`] = { ...rest, resolved: `file:${tarball}` };
    queue.push(`packages/${pkg.folder}`);
  }
  const seen = new Set(queue);
  while (queue.length > 0) {
    const from = queue.shift()!;
    const entry = root.packages[from];
    const wanted = {
      ...entry.dependencies,
      ...entry.optionalDependencies,
      ...Object.fromEntries(
        Object.entries(entry.peerDependencies ?? {}).filter(([dep]) => !entry.peerDependenciesMeta?.[dep]?.optional),
      ),
    };
    for (const dep of Object.keys(wanted)) {
      const at = resolveIn(root.packages, from, dep);
      if (at === undefined) {
        if (entry.optionalDependencies?.[dep] !== undefined) continue; // another platform's, not installed here
        throw new Error(`package-lock.json: ${dep}, needed by ${from || 'the root'}, is not in the tree`);
      }
      if (seen.has(at)) continue;
      seen.add(at);
      queue.push(at);
      // What the workspace installed for its tools only is, here, a dependency like any other.
      const { dev: _dev, devOptional: _devOptional, peer: _peer, ...kept } = root.packages[at];
      packages[moved(at)] = kept;
    }
  }
  return { dependencies, lockfile: { name, lockfileVersion: 3, requires: true, packages } };
}
