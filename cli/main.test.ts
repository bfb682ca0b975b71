import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { main } from './main';
import { runInProcess } from './testing/run-in-process';
import { CONTRACT_VERSION } from '../contracts/contract-version';
import { packagePath } from '../shared/package-root';

describe('federated-gateway --version', () => {
  it("prints the package's version and the contract's, which move apart", async () => {
    const pkg = JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { version: string };
    for (const flag of ['--version', '-v']) {
      const run = await runInProcess(main, [flag]);
      expect(run).toEqual({ code: 0, stdout: `${pkg.version} (contract ${CONTRACT_VERSION})\n`, stderr: '' });
    }
  });
});
