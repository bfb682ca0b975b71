import { describe, expect, it } from 'vitest';
import { consumerLockfile } from './consumer-lockfile';
import { publishedPackage } from './published-packages';

// A workspace lockfile in miniature: the toolkit needs a (nested under packages/toolkit, since
// the root's tools want another a) and b, which needs c; d is the root's alone.
const ROOT = {
  lockfileVersion: 3,
  packages: {
    '': { name: 'federated-gateway', devDependencies: { a: '^1.0.0', d: '^1.0.0' } },
    'node_modules/@federated-gateway/toolkit': { resolved: 'packages/toolkit', link: true },
    'packages/toolkit': {
      name: '@federated-gateway/toolkit',
      version: '0.1.0',
      dependencies: { a: '^2.0.0', b: '^1' },
    },
    'packages/toolkit/node_modules/a': { version: '2.0.0', integrity: 'sha512-a2' },
    'node_modules/a': { version: '1.0.0', integrity: 'sha512-a1', dev: true },
    'node_modules/b': { version: '1.2.0', integrity: 'sha512-b', dependencies: { c: '*' }, devOptional: true },
    'node_modules/c': { version: '3.0.0', integrity: 'sha512-c', dev: true },
    'node_modules/d': { version: '1.0.0', integrity: 'sha512-d', dev: true },
  },
};
const toolkit = { pkg: publishedPackage('toolkit'), tarball: '../toolkit.tgz' };

describe("the consumer project's lockfile", () => {
  it('holds the packed package as its tarball and the dependencies at the versions the workspace installed', () => {
    const { dependencies, lockfile } = consumerLockfile('consumer', [toolkit], ROOT);
    expect(dependencies).toEqual({ '@federated-gateway/toolkit': 'file:../toolkit.tgz' });
    expect(Object.keys(lockfile.packages).sort()).toEqual([
      '',
      'node_modules/@federated-gateway/toolkit',
      'node_modules/@federated-gateway/toolkit/node_modules/a',
      'node_modules/b',
      'node_modules/c',
    ]);
    expect(lockfile.packages['node_modules/@federated-gateway/toolkit']).toMatchObject({
      version: '0.1.0',
      resolved: 'file:../toolkit.tgz',
    });
    expect(lockfile.packages['node_modules/@federated-gateway/toolkit/node_modules/a'].version).toBe('2.0.0');
  });

  it('drops the workspace-only flags: a tool dependency of the workspace is a plain one here', () => {
    const { lockfile } = consumerLockfile('consumer', [toolkit], ROOT);
    expect(lockfile.packages['node_modules/c']).toEqual({ version: '3.0.0', integrity: 'sha512-c' });
    expect(lockfile.packages['node_modules/b'].devOptional).toBeUndefined();
  });

  it('names a dependency the workspace never installed', () => {
    const { 'node_modules/c': _c, ...packages } = ROOT.packages;
    const broken = { ...ROOT, packages };
    expect(() => consumerLockfile('consumer', [toolkit], broken)).toThrow(/c, needed by node_modules\/b/);
  });
});
