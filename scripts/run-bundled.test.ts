import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT, packagePath } from '../shared/package-root';

// The launcher of npm start and npm run gateway; the gateway's process tests run it for real
// (gateway-process.ts, the cluster's), these pin what they do not reach.

/** How the launcher failed (both cases here are meant to fail); undefined if it exited 0. */
const failureOf = (...args: string[]) =>
  promisify(execFile)(process.execPath, ['scripts/run-bundled.mjs', ...args], {
    cwd: PACKAGE_ROOT,
    env: { ...process.env, GATEWAY_WORKERS: 'many' },
  }).then(
    () => undefined,
    (error: { code: number; stderr: string }) => error,
  );

describe('scripts/run-bundled.mjs', () => {
  it('refuses an entry it does not know, naming the ones it does (exit 2)', async () => {
    const failure = await failureOf('nonsense');
    expect(failure?.code).toBe(2);
    expect(failure?.stderr).toContain('usage: node scripts/run-bundled.mjs start|gateway|bare-proxy');
  });

  it('bundles the gateway with a source map beside it and runs it: its own exit code comes back', async () => {
    // GATEWAY_WORKERS=many is a usage error the gateway reports at once (exit 2), after the bundle ran.
    const failure = await failureOf('gateway');
    expect(failure?.code).toBe(2);
    expect(failure?.stderr).toContain("GATEWAY_WORKERS must be a whole number ≥ 1 or auto, not 'many'");
    expect(existsSync(packagePath('var', 'build', 'gateway.mjs'))).toBe(true);
    expect(existsSync(packagePath('var', 'build', 'gateway.mjs.map'))).toBe(true);
  });
});
